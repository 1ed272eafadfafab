// A city's 4x4 grid: its cells over the warped photo, the picker, and typing a city in (paint mode).
import { $, buildingName, call, el, showDialog } from "../common.js";
import { badge, gridFrame } from "./drawing.js";
import { refocus, setCardError } from "./state.js";
import { offerUndo, putCell, putGrid } from "./undo.js";
import { cityName, named, plural, spoken } from "./words.js";

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

export function gridView(page, city, index) {
  const { short: SHORT } = page.game;
  const { wrap, grid, reading } = gridFrame(page, city, index);
  const { paint, nextCell } = page;
  const painting = paint && paint.city === index;
  const corrected = correctedCells(city);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const building = cellAt(page, city, index, r, c);
      const next = !painting && nextCell && nextCell.city === index && nextCell.r === r && nextCell.c === c && !building;
      const conf = reading && reading.confidence ? reading.confidence[r][c] : 1;
      const flagged = Boolean(reading && reading.uncertain && reading.uncertain.some(([y, x]) => y === r && x === c));
      const fixed = corrected.some(([y, x]) => y === r && x === c);
      const checked = page.confirmed.has(`${index}:${r}:${c}`) || chosen(city, r, c);
      const low = flagged && !fixed && !checked;
      const cell = el("button", {
        type: "button",
        className: `cell${low ? " low" : ""}${fixed ? " corrected" : ""}${next ? " next" : ""}`,
        title: building ? `${building}${fixed ? `, corrected (read as ${reading.model_grid[r][c]})` : conf < 1 ? ` (${Math.round(conf * 100)} %)` : ""}` : "choose",
      });
      cell.dataset.row = r + 1;
      cell.dataset.col = c + 1;
      cell.dataset.focus = `cell:${index}:${r}:${c}`;
      if (fixed) cell.dataset.corrected = "true";
      // Screen readers hear what the eye sees: the building, and whether it is flagged or corrected.
      const state = fixed ? `, corrected (read as ${spoken(reading.model_grid[r][c])})` : low ? ", to check" : "";
      const todo = next ? ", next to type" : painting && building !== paint.building ? `, tap to make it a ${spoken(paint.building)}` : "";
      cell.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}: ${building ? named(SHORT, building) : "empty"}${state}${todo}`);
      if (!painting) cell.setAttribute("aria-haspopup", "dialog");
      if (building) {
        cell.append(el("img", { src: `/static/icons/${building}.png`, alt: "" }));
        cell.append(badge(page.game, building));
      } else cell.append(el("span", { textContent: "?" }));
      if (low) {
        // Flagged: not by colour only. The "?" is drawn by the style sheet, so the cell's visible
        // text stays its letters, which its name holds (a "S?" is in no name: label in name).
        const flag = el("i", { className: "flag" });
        flag.setAttribute("aria-hidden", "true");
        cell.append(flag);
      }
      cell.addEventListener("click", (event) => {
        if (event.detail > 1 && performance.now() - pickerTappedAt < DOUBLE_TAP_MS) return; // a double tap's second tap on a building
        if (page.paint && page.paint.city === index) paintCell(page, index, r, c, page.paint.building);
        else pickCell(page, index, r, c, building);
      });
      grid.append(cell);
    }
  }
  return wrap;
}

// How many cells of city index the reader was unsure of and the player has not checked yet.
export const flaggedCount = (page, index) => ((page.table.cities[index].reading || {}).uncertain || [])
  .filter(([r, c]) => flaggedCell(page, index, r, c)).length;

// A cell the reader was unsure of, not yet corrected or checked by the player.
function flaggedCell(page, index, r, c) {
  const city = page.table.cities[index];
  const uncertain = (city.reading && city.reading.uncertain) || [];
  return uncertain.some(([y, x]) => y === r && x === c) && !page.confirmed.has(`${index}:${r}:${c}`)
    && !chosen(city, r, c) && !correctedCells(city).some(([y, x]) => y === r && x === c);
}

// The second tap of a double tap (a click whose detail counts 2) this soon after a tap in the
// picker was meant for a building: it would open the picker again on the cell that lay under
// the finger. A quick single tap on the next cell still opens it.
const DOUBLE_TAP_MS = 400;
let pickerTappedAt = -Infinity;

function pickCell(page, index, r, c, current) {
  const dialog = $("picker");
  $("picker-title").textContent = `City ${index + 1} (${cityName(page.table, index)}), row ${r + 1}, column ${c + 1}: which building?`;
  dialog.querySelectorAll(".pick").forEach((b) => b.classList.toggle("current", b.value === current));
  showCell(page, index, r, c);
  // A cell flagged to check: "Looks right" keeps what it shows and clears the flag.
  const looksRight = $("looks-right");
  looksRight.value = current || "";
  looksRight.hidden = !(current && flaggedCell(page, index, r, c));
  // (a tap on a building closes the picker at once, its close event comes after the next tap)
  dialog.onclick = () => { pickerTappedAt = performance.now(); };
  dialog.onclose = () => {
    // The page redrawn behind the picker: its cell is a new one, so focus would fall to the page.
    const focus = document.activeElement;
    if (!focus || focus === document.body || dialog.contains(focus)) refocus(`cell:${index}:${r}:${c}`);
    const building = dialog.returnValue;
    if (!building) return;
    // Choosing the building a cell shows confirms it: a flagged cell is then checked.
    if (building === current) page.confirmed.add(`${index}:${r}:${c}`);
    // Typing a city in: the next empty cell is chosen, Enter (or a tap) opens its picker.
    sendCell(page, index, r, c, building, () => nextEmpty(page, page.table.cities[index], index, r, c));
    focusNext(page);
  };
  dialog.returnValue = "";
  showDialog(dialog);
}

// The cell as photographed, enlarged above the buildings to choose from (the picker covers the
// city): its part of the warped photo, with a tenth of a cell of its neighbours all round.
function showCell(page, index, r, c) {
  const view = $("picker-cell");
  const city = page.table.cities[index];
  const warp = city.photo && city.reading && !city.reading.unread && city.reading.warp;
  view.hidden = !warp;
  if (!warp) return;
  const cell = (warp.side - 2 * warp.pad) / 4;
  const margin = 0.1 * cell;
  const scale = parseFloat(getComputedStyle(view).width) / (cell + 2 * margin);
  view.style.backgroundImage = `url("${page.api}/cities/${index + 1}/warped.jpg?v=${page.table.updated}")`;
  view.style.backgroundSize = `${warp.side * scale}px`;
  const offset = (k) => `${-(warp.pad + k * cell - margin) * scale}px`;
  view.style.backgroundPosition = `${offset(c)} ${offset(r)}`;
  view.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1} as photographed`);
}

// After a cell changed from `before` to `building` (the server's answer is page.table), the
// snackbar offers to take it back: the cell set back, or an empty cell of a typed city emptied
// again (its grid as before; a cell alone cannot be emptied).
function offerCellUndo(page, index, r, c, before, building, gridBefore) {
  if (before === building) return;
  const where = `City ${index + 1}, row ${r + 1}, column ${c + 1}`;
  if (before) {
    offerUndo(page, index, `${where}: ${spoken(building)} instead of ${spoken(before)}.`, putCell(page, index, r, c, before));
  } else if (gridBefore && !page.table.cities[index].photo) {
    offerUndo(page, index, `${where}: ${spoken(building)} typed.`, putGrid(page, index, gridBefore));
  }
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
  if (nextCell) refocus(`cell:${nextCell.city}:${nextCell.r}:${nextCell.c}`);
}

// Paint mode: one building chosen, then every tapped cell becomes it (no picker per cell). It
// ends with the city's 16th tile, so that a later tap to correct a cell does not paint it.
function paintCell(page, index, r, c, building) {
  const city = page.table.cities[index];
  if (cellAt(page, city, index, r, c) === building) return;
  const full = typedCount(page, city, index) === 16;
  sendCell(page, index, r, c, building, () => null);
  if (!full && typedCount(page, city, index) === 16) {
    page.paint = null;
    page.render();
  }
}

// A cell set: shown at once (pending), sent after the cells before it; the server's answer then
// replaces it, or on an error the cell goes back to what the server keeps and the card says why.
// next() chooses the cell to type next (with the new one shown).
function sendCell(page, index, r, c, building, next) {
  const key = `${index}:${r}:${c}`;
  const shown = cellAt(page, page.table.cities[index], index, r, c);
  if (building !== shown) page.confirmed.delete(key);
  page.pending.set(key, building);
  page.nextCell = next();
  page.render();
  page.sending = page.sending.then(async () => {
    const gridBefore = structuredClone(page.table.cities[index].grid); // as the server keeps it
    const before = gridBefore ? gridBefore[r][c] : null;
    try {
      page.answer(await call("PUT", `${page.api}/cities/${index + 1}/cells/${r + 1}/${c + 1}`, { building }));
      offerCellUndo(page, index, r, c, before, building, gridBefore);
      setCardError(page, index, "");
    } catch (error) {
      setCardError(page, index, `Row ${r + 1}, column ${c + 1} not changed: ${error.message}`);
      page.confirmed.delete(key);
      if (!before) page.nextCell = { city: index, r, c }; // still to type
    }
    page.pending.delete(key);
    page.render();
    if (page.table.cities[index].photo) page.refreshLearning(); // a typed city teaches nothing
  });
}

// Under the cells being typed: how many, and the score so far (what grows as cells are typed
// goes below them, so that the cells stay where the player taps).
export function typingCount(page, city, index) {
  const panel = el("div", { className: "typing" });
  const count = el("p", { className: "typed", textContent: `${typedCount(page, city, index)} of 16 tiles typed` });
  count.setAttribute("aria-live", "polite");
  panel.append(count);
  const running = runningScore(page, index);
  if (running) panel.append(running);
  return panel;
}

// Above the cells: a button per building to paint with. Nothing here moves while painting: the
// line saying what is painted has a row of its own, and "Done painting" keeps its place.
export function paintTools(page, index) {
  const { buildings: BUILDINGS, short: SHORT } = page.game;
  const { paint } = page;
  const painting = paint && paint.city === index;
  const tools = el("div", { className: "paint-tools" });
  tools.setAttribute("role", "group");
  tools.setAttribute("aria-label", `Paint City ${index + 1}: choose a building, then tap cells`);
  tools.append(el("span", { className: "hint", textContent: painting ? `Painting ${spoken(paint.building)}: tap cells` : "Paint a building: choose it, then tap cells" }));
  for (const b of BUILDINGS) {
    const on = painting && paint.building === b;
    const button = el("button", { type: "button", className: `paint-pick${on ? " on" : ""}`, title: buildingName(b) },
      el("img", { src: `/static/icons/${b}.png`, alt: "" }), badge(page.game, b),
      el("span", { className: "paint-name", textContent: buildingName(b).replace(/ tavern$/, "") }));
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
  const stop = el("button", { type: "button", className: "small paint-stop", textContent: "Done painting" });
  stop.dataset.focus = `paint-stop:${index}`;
  stop.classList.toggle("unseen", !painting);
  stop.addEventListener("click", () => { page.paint = null; page.render(); });
  tools.append(stop);
  return tools;
}

// The city's score so far, by category, as the server scored its tiles in its last answer
// (scores.so_far: empty cells score nothing, factories ranked against the table's other cities),
// and the buildings typed beyond the game's supply.
function runningScore(page, index) {
  const soFar = page.table.scores.so_far && page.table.scores.so_far[index];
  if (!soFar) return null;
  const { scores } = soFar;
  const box = el("div", { className: "so-far" });
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", `City ${index + 1}'s score so far`);
  const total = el("p", { className: "so-far-total", textContent: `So far: ${plural(scores.total, "point", "points")}` });
  total.title = `The ${soFar.tiles} tiles placed as they lie; empty cells score nothing`;
  const list = el("ul", { className: "so-far-categories" });
  for (const category of page.game.categories) {
    const item = el("li", {}, `${category} `, el("b", { textContent: scores[category] }));
    item.dataset.category = category;
    list.append(item);
  }
  box.append(total, list);
  // a slip seen as it is typed: more of a building than the game has
  for (const warning of soFar.warnings || []) box.append(el("p", { className: "hint warn supply", textContent: `Check this city: ${warning}.` }));
  return box;
}
