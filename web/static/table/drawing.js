// A city's square drawn: over its warped photo or as plain cells, each building's badge, and a
// score's cells marked by group (the sheet that explains a score).
import { el } from "../common.js";

export const GROUP_COLOURS = 6; // a score's groups take colours g0..g5 (app.css), then again

// A city's corners ([[x, y] x4], photo pixels) as an SVG polygon's points.
export const polygonPoints = (corners) => corners.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

// A building's badge: a shape of its own and the notation's letters ("S", "Td"), so that it is
// told apart without colour (the icons of drawn tiles look alike to many); shapes drawn in app.css.
export function badge(game, building) {
  const shown = el("span", { className: "glyph", textContent: game.short[building] });
  shown.dataset.shape = game.shapes[building];
  shown.setAttribute("aria-hidden", "true");
  return shown;
}

// The city's square: over its warped photo when it was read from one, else plain cells.
export function gridFrame(page, city, index) {
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
  wrap.append(grid);
  return { wrap, grid, reading };
}

// A score's cells drawn on the city (marks: {"r:c": {group, badge}}), each group its colour and
// badge; a picture only, the explanation beside it says the same in words.
export function drawnGrid(page, city, index, marks) {
  const { wrap, grid } = gridFrame(page, city, index);
  wrap.setAttribute("aria-hidden", "true");
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const building = city.grid[r][c];
      const mark = marks[`${r}:${c}`];
      const cell = el("div", { className: `cell${mark ? ` hl g${mark.group % GROUP_COLOURS}` : ""}` });
      cell.dataset.row = r + 1;
      cell.dataset.col = c + 1;
      if (building) cell.append(el("img", { src: `/static/icons/${building}.png`, alt: "" }), badge(page.game, building));
      if (mark) cell.append(el("b", { className: "badge", textContent: mark.badge }));
      grid.append(cell);
    }
  }
  return wrap;
}

