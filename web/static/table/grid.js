// A city's 4x4 grid: its cells over the warped photo, the picker, and typing a city in (paint mode).
import { $, buildingName, call, el } from "../common.js";
import { GROUP_COLOURS } from "./scores.js";
import { setCardError } from "./state.js";
import { cityName, named, spoken } from "./words.js";

// A cell the player corrected or confirmed (kept by the server with the reading).
export function chosen(city, r, c) {
  const cells = (city.reading && city.reading.chosen) || [];
  return cells.some(([y, x]) => y === r && x === c);
}

// Cells where the player chose another building than the model read.
export function correctedCells(city) {
  const model = city.reading && city.reading.model_grid;
  if (!model || !city.grid) return [];
  const found = [];
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      if (model[r] && city.grid[r] && city.grid[r][c] && model[r][c] !== city.grid[r][c]) found.push([r, c]);
    }
  }
  return found;
}

// A building's badge: a shape of its own and the notation's letters ("S", "Td"), so that it is
// told apart without colour (the icons of drawn tiles look alike to many); shapes drawn in app.css.
function badge(game, building) {
  const shown = el("span", { className: "glyph", textContent: game.short[building] });
  shown.dataset.shape = game.shapes[building];
  shown.setAttribute("aria-hidden", "true");
  return shown;
}

export function gridView(page, city, index) {
  const { short: SHORT } = page.game;
  const reading = city.reading && city.reading.warp ? city.reading : null;
  const wrap = el("div", { className: reading ? "grid-wrap photo" : "grid-wrap" });
  if (reading) {
    wrap.append(el("img", { src: `${page.api}/cities/${index + 1}/warped.jpg?v=${page.table.updated}`, alt: `City ${index + 1} photo` }));
  }
  const grid = el("div", { className: "grid" });
  if (reading) {
    const inset = (100 * reading.warp.pad) / reading.warp.side;
    grid.style.inset = `${inset}%`;
  }
  const { highlight, paint, nextCell } = page;
  const marks = highlight && highlight.city === index ? highlight.marks : {};
  const painting = paint && paint.city === index;
  const corrected = correctedCells(city);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const building = cellAt(page, city, index, r, c);
      const mark = marks[`${r}:${c}`];
      const next = !painting && nextCell && nextCell.city === index && nextCell.r === r && nextCell.c === c && !building;
      const conf = reading && reading.confidence ? reading.confidence[r][c] : 1;
      const flagged = Boolean(reading && reading.uncertain && reading.uncertain.some(([y, x]) => y === r && x === c));
      const fixed = corrected.some(([y, x]) => y === r && x === c);
      const checked = page.confirmed.has(`${index}:${r}:${c}`) || chosen(city, r, c);
      const low = flagged && !fixed && !checked;
      const cell = el("button", {
        type: "button",
        className: `cell${low ? " low" : ""}${fixed ? " corrected" : ""}${mark ? ` hl g${mark.group % GROUP_COLOURS}` : ""}${next ? " next" : ""}`,
        title: building ? `${building}${fixed ? `, corrected (read as ${reading.model_grid[r][c]})` : conf < 1 ? ` (${Math.round(conf * 100)} %)` : ""}` : "choose",
      });
      cell.dataset.row = r + 1;
      cell.dataset.col = c + 1;
      cell.dataset.focus = `cell:${index}:${r}:${c}`;
      if (fixed) cell.dataset.corrected = "true";
      // Screen readers hear what the eye sees: the building, and whether it is flagged or corrected.
      const state = fixed ? `, corrected (read as ${spoken(reading.model_grid[r][c])})` : low ? ", to check" : "";
      const why = mark ? `, ${mark.words}` : "";
      const todo = next ? ", next to type" : painting && building !== paint.building ? `, tap to make it a ${spoken(paint.building)}` : "";
      cell.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}: ${building ? named(SHORT, building) : "empty"}${state}${why}${todo}`);
      if (!painting) cell.setAttribute("aria-haspopup", "dialog");
      if (building) {
        cell.append(el("img", { src: `/static/icons/${building}.png`, alt: "" }));
        cell.append(badge(page.game, building));
      } else cell.append(el("span", { textContent: "?" }));
      if (low) {
        const flag = el("i", { className: "flag", textContent: "?" }); // flagged: not by colour only
        flag.setAttribute("aria-hidden", "true");
        cell.append(flag);
      }
      if (mark) {
        const badge = el("b", { className: "badge", textContent: mark.badge }); // the group, not by colour only
        badge.setAttribute("aria-hidden", "true");
        cell.append(badge);
      }
      cell.addEventListener("click", () => (page.paint && page.paint.city === index
        ? paintCell(page, index, r, c, page.paint.building) : pickCell(page, index, r, c, building)));
      grid.append(cell);
    }
  }
  wrap.append(grid);
  return wrap;
}

function pickCell(page, index, r, c, current) {
  const dialog = $("picker");
  $("picker-title").textContent = `City ${index + 1} (${cityName(page.table, index)}), row ${r + 1}, column ${c + 1}: which building?`;
  dialog.querySelectorAll(".pick").forEach((b) => b.classList.toggle("current", b.value === current));
  dialog.onclose = async () => {
    const building = dialog.returnValue;
    if (!building) return;
    try {
      page.answer(await call("PUT", `${page.api}/cities/${index + 1}/cells/${r + 1}/${c + 1}`, { building }));
      // Choosing the building a cell shows confirms it: a flagged cell is then checked.
      if (building === current) page.confirmed.add(`${index}:${r}:${c}`);
      else page.confirmed.delete(`${index}:${r}:${c}`);
      setCardError(page, index, "");
      // Typing a city in: the next empty cell is chosen, Enter (or a tap) opens its picker.
      page.nextCell = nextEmpty(page, page.table.cities[index], index, r, c);
      if (page.highlight && page.highlight.city === index) page.highlight = null; // drawn for the cells before
      page.render();
      focusNext(page);
      page.refreshLearning();
    } catch (error) { setCardError(page, index, error.message); page.render(); }
  };
  dialog.returnValue = "";
  dialog.showModal();
}

// --- typing a city in: paint mode and the count of tiles typed --------------------------------

// A cell as shown: what was just painted there, else what the server keeps.
function cellAt(page, city, index, r, c) {
  const key = `${index}:${r}:${c}`;
  if (page.pending.has(key)) return page.pending.get(key);
  return city.grid && city.grid[r] ? city.grid[r][c] : null;
}

const shownGrid = (page, city, index) => [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => cellAt(page, city, index, r, c)));
export const typedCount = (page, city, index) => shownGrid(page, city, index).flat().filter(Boolean).length;

// The first empty cell after (r, c), reading row by row and starting over at the top.
function nextEmpty(page, city, index, r, c) {
  for (let k = 1; k <= 16; k++) {
    const i = (r * 4 + c + k) % 16;
    const [y, x] = [Math.floor(i / 4), i % 4];
    if (!cellAt(page, city, index, y, x)) return { city: index, r: y, c: x };
  }
  return null;
}

function focusNext(page) {
  const { nextCell } = page;
  if (!nextCell) return;
  const key = `cell:${nextCell.city}:${nextCell.r}:${nextCell.c}`;
  const node = [...document.querySelectorAll("[data-focus]")].find((n) => n.dataset.focus === key);
  if (node) node.focus({ preventScroll: true });
}

// Paint mode: one building chosen, then every tapped cell becomes it (no picker per cell).
function paintCell(page, index, r, c, building) {
  const key = `${index}:${r}:${c}`;
  const city = page.table.cities[index];
  if (cellAt(page, city, index, r, c) === building) return;
  page.pending.set(key, building);
  page.confirmed.delete(key);
  page.nextCell = null;
  if (page.highlight && page.highlight.city === index) page.highlight = null; // drawn for the cells before
  page.render();
  page.sending = page.sending.then(async () => {
    try {
      page.answer(await call("PUT", `${page.api}/cities/${index + 1}/cells/${r + 1}/${c + 1}`, { building }));
      setCardError(page, index, "");
    } catch (error) { setCardError(page, index, error.message); }
    page.pending.delete(key);
    page.render();
  });
}

export function typingPanel(page, city, index) {
  const { buildings: BUILDINGS, short: SHORT } = page.game;
  const panel = el("div", { className: "typing" });
  const typed = typedCount(page, city, index);
  // the score itself comes from the server once all 16 are in (the rules live in Python)
  const count = el("p", { className: "typed", textContent: `${typed} of 16 tiles typed` });
  count.setAttribute("aria-live", "polite");
  panel.append(count);
  const { paint } = page;
  const painting = paint && paint.city === index;
  const tools = el("div", { className: "paint-tools" });
  tools.setAttribute("role", "group");
  tools.setAttribute("aria-label", `Paint City ${index + 1}: choose a building, then tap cells`);
  tools.append(el("span", { className: "hint", textContent: painting ? `Painting ${spoken(paint.building)}: tap cells` : "Paint:" }));
  for (const b of BUILDINGS) {
    const on = painting && paint.building === b;
    const button = el("button", { type: "button", className: `paint-pick${on ? " on" : ""}`, title: buildingName(b) },
      el("img", { src: `/static/icons/${b}.png`, alt: "" }), badge(page.game, b));
    button.dataset.building = b;
    button.dataset.focus = `paint:${index}:${b}`;
    button.setAttribute("aria-label", `Paint ${named(SHORT, b)}`);
    button.setAttribute("aria-pressed", String(on));
    button.addEventListener("click", () => {
      page.paint = on ? null : { city: index, building: b };
      page.nextCell = null;
      page.render();
    });
    tools.append(button);
  }
  if (painting) {
    const stop = el("button", { type: "button", className: "small paint-stop", textContent: "Done painting" });
    stop.dataset.focus = `paint-stop:${index}`;
    stop.addEventListener("click", () => { page.paint = null; page.render(); });
    tools.append(stop);
  }
  panel.append(tools);
  return panel;
}
