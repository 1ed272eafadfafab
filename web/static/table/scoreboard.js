// The scoreboard: the results once the winner can be named, then every city's points by category.
// The cities are its columns where they fit, else its rows (a phone, many cities): no city is
// ever out of sight, the best one included.
import { $, el } from "../common.js";
import { flaggedCount } from "./grid.js";
import { ORDINAL, results, scoreButton } from "./scores.js";
import { cityName, plural } from "./words.js";

// A city's factory rank at the table (1 the most factories, 2 the next most, 3 fewer); under a
// narrow row's factories score it shows as what each factory is worth ("×4", its title in words).
const RANKS = ["-", "1st", "2nd", "fewer"];

// Every city is known and no whole-table photo's seating waits to be checked (seats decide who wins).
export const isFinal = (page) => Boolean(page.table.scores.complete) && !page.unchecked;

// Draw the scoreboard: cities as columns; as rows when the columns would not fit; as rows with a
// solo table's difficulty under Automaville's total when even those would not (a small phone).
export function showScoreboard(page) {
  const box = $("scoreboard");
  for (const layout of [citiesAsColumns, citiesAsRows, (p) => citiesAsRows(p, true)]) {
    box.replaceChildren(scoreboard(page, layout));
    const scroll = box.querySelector(".scroll");
    if (scroll.scrollWidth <= scroll.clientWidth) return;
  }
}

function scoreboard(page, layout) {
  const s = page.table.scores;
  const root = el("div");
  if (isFinal(page)) root.append(results(page.table)); // results first: the winner, then the detail
  const flagged = page.table.cities.map((_, i) => [i, flaggedCount(page, i)]).filter(([, n]) => n);
  if (isFinal(page) && flagged.length) {
    const where = flagged.map(([i, n]) => `${plural(n, "cell", "cells")} in city ${i + 1}`).join(", ");
    root.append(el("p", { className: "hint warn flagged", textContent: `Still to check (marked ?): ${where}. The result changes if one was misread.` }));
  }
  const scroll = el("div", { className: "scroll" }, layout(page));
  scroll.tabIndex = 0; // scrollable with the keyboard on a screen too narrow even for rows
  scroll.setAttribute("role", "region");
  scroll.setAttribute("aria-label", "Points by city");
  root.append(scroll);
  (s.warnings || []).forEach((w) => root.append(el("p", { className: "hint warn supply", textContent: `Check the cities: ${w}.` })));
  const wait = !s.complete ? "Final scores appear when every city is read."
    : isFinal(page) ? "" : "Final scores and the winner appear once the seating is checked: “Seating is right” above.";
  if (wait) root.append(el("p", { className: "hint wait", textContent: wait }));
  return root;
}

// What the board says of city i, line by line: [line's name, its cell]; the difficulty's line
// only at a solo table (Automaville's buildings + the modifier = its total). rankBelow: the
// factory rank goes under the factories' score, not on a line of its own (narrow rows);
// difficultyBelow: the modifier likewise goes under the total (rows still too wide).
function cityLines(page, i, rankBelow = false, difficultyBelow = false) {
  const { table } = page;
  const city = table.scores.cities[i];
  const cell = (className, text, title = "") => el("td", city ? { className, textContent: text, title } : { textContent: "–" });
  const lines = page.game.categories.map((category) => [category, city ? el("td", {}, scoreButton(page, city, i, category)) : cell()]);
  const level = city && city.difficulty; // its line ("53 + 4 = 57 (difficulty 6)") is the cells' title
  const modifier = level ? `${level.modifier >= 0 ? "+" : ""}${level.modifier}` : "";
  if (table.scores.cities.some((c) => c && c.difficulty) && !difficultyBelow) {
    lines.push(["difficulty", cell("difficulty", modifier, level ? level.line : "")]);
  }
  const total = cell("total", city && city.scores.total + (city.modifier || 0), level ? level.line : "");
  if (difficultyBelow && level) {
    total.append(el("small", { className: "modifier" }, el("span", { className: "visually-hidden", textContent: "difficulty " }), modifier));
  }
  lines.push(["total", total]);
  const rank = city && RANKS[city.factory_rank];
  const per = city && city.factory_rank ? city.explanation.factories.per_tile : 0;
  const rankTitle = per ? `${ORDINAL[city.factory_rank]} at the table: ${per} points each` : "";
  if (!rankBelow) lines.push(["factory rank", cell("rank", rank, rankTitle)]);
  else if (per) {
    lines[page.game.categories.indexOf("factories")][1].append(el("small", { className: "rank", title: rankTitle }, `×${per}`,
      el("span", { className: "visually-hidden", textContent: ` (${per} points a factory: ${ORDINAL[city.factory_rank]} at the table)` })));
  }
  return lines;
}

// A city's heading: who built it, and its number as on the cards below.
const cityHead = (table, i, scope) => el("th", { scope }, el("span", { className: "builders", textContent: cityName(table, i) }),
  el("small", { textContent: `city ${i + 1}` }));

// One column per city, one row per line (a laptop, a phone with few cities).
function citiesAsColumns(page) {
  const { table } = page;
  const cities = table.cities.map((_, i) => cityLines(page, i));
  const corner = el("th", { scope: "col" }, el("span", { className: "visually-hidden", textContent: "Category" }));
  const head = el("tr", {}, corner, ...table.cities.map((_, i) => cityHead(table, i, "col")));
  const rows = cities[0].map(([name], k) => el("tr", {}, el("th", { scope: "row", textContent: name }),
    ...cities.map((lines) => lines[k][1])));
  return el("table", { className: "scores" }, el("thead", {}, head), el("tbody", {}, ...rows));
}

// One row per city, one column per line, the lines' names written upwards to stay narrow; the
// total first, beside the city's name, where even the narrowest screen shows it.
function citiesAsRows(page, difficultyBelow = false) {
  const { table } = page;
  const totalFirst = (lines) => [...lines.filter(([name]) => name === "total"), ...lines.filter(([name]) => name !== "total")];
  const cities = table.cities.map((_, i) => totalFirst(cityLines(page, i, true, difficultyBelow)));
  const corner = el("th", { scope: "col", textContent: "City" });
  const head = el("tr", {}, corner, ...cities[0].map(([name]) => el("th", { scope: "col", className: "upward" },
    el("span", { textContent: name }))));
  const rows = cities.map((lines, i) => el("tr", {}, cityHead(table, i, "row"), ...lines.map(([, cell]) => cell)));
  return el("table", { className: "scores by-city" }, el("thead", {}, head), el("tbody", {}, ...rows));
}
