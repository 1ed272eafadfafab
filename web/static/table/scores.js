// Every point explained, in words and drawn on the city; the results; totals moved by another city.
import { $, el, showDialog } from "../common.js";
import { GROUP_COLOURS, drawnGrid } from "./drawing.js";
import { cityName, cityTitle, listed, place, plural } from "./words.js";

const LETTERS = "ABCDEFGHIJKLMNOP";
export const ORDINAL = ["no factories", "the most factories", "the second most factories", "fewer factories"];

const cellsOf = (grid, pred) => grid.flatMap((row, r) => row.map((b, c) => [r, c, b])).filter(([, , b]) => pred(b)).map(([r, c]) => [r, c]);

// --- every point drawn on the city, in a player's words ------------------------------------

// Each category's groups of cells: add(cells, text, badge) draws one; lines.push a remark.
const EXPLAIN = {
  shops({ why, add }) {
    why.sets.forEach((s, k) => {
      const what = s.cells.length === 1 ? "a shop on its own" : `${s.cells.length} shops in a line`;
      add(s.cells, `${what}, ${place(s.cells)}: ${plural(s.points, "point", "points")}`, LETTERS[k]);
    });
  },
  parks({ why, add }) {
    why.groups.forEach((g, k) => {
      const what = g.cells.length === 1 ? "a park on its own" : `a group of ${g.cells.length} parks`;
      add(g.cells, `${what}, ${place(g.cells)}: ${plural(g.points, "point", "points")}`, LETTERS[k]);
    });
  },
  taverns({ why, grid, add, lines }) {
    // The explanation names the kinds in each set; the cells are the city's taverns of those kinds.
    const left = {};
    for (const [r, c] of cellsOf(grid, (b) => b && b.startsWith("tavern-"))) (left[grid[r][c]] = left[grid[r][c]] || []).push([r, c]);
    why.sets.forEach((s, k) => {
      const cells = s.kinds.map((kind) => (left[kind] || []).shift()).filter(Boolean);
      const names = s.kinds.map((kind) => kind.slice(7));
      const kinds = names.length === 1 ? `a ${names[0]} tavern` : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} taverns`;
      const what = s.kinds.length === 1 ? `${kinds} on its own` : `a set of ${s.kinds.length}: ${kinds}`;
      add(cells, `${what}, ${place(cells)}: ${plural(s.points, "point", "points")}`, LETTERS[k]);
    });
    if (why.sets.length > 1) lines.push({ text: "A set holds each kind once; a second tavern of a kind starts a new set." });
  },
  offices({ why, grid, add, lines, marks }) {
    const offices = cellsOf(grid, (b) => b === "office");
    let from = 0;
    why.sets.forEach((s, k) => {
      const cells = offices.slice(from, from + s.size);
      from += s.size;
      add(cells, `a set of ${plural(s.size, "office", "offices")}, ${place(cells)}: ${plural(s.points, "point", "points")}`, LETTERS[k]);
    });
    if (why.sets.length > 1) lines.push({ text: "Offices count in sets of up to 6, wherever they are." });
    if (why.next_to_tavern.length) {
      const bonus = { group: lines.length, badge: "+1", text: `+1 for each office next to a tavern (${plural(why.next_to_tavern.length, "office", "offices")}), ${place(why.next_to_tavern)}: ${plural(why.next_to_tavern.length, "point", "points")}` };
      lines.push(bonus);
      for (const [r, c] of why.next_to_tavern) {
        const mark = marks[`${r}:${c}`];
        marks[`${r}:${c}`] = { group: bonus.group, badge: `${mark ? mark.badge : ""}+1` };
      }
    }
  },
  houses({ why, add }) {
    const capped = why.next_to_factory;
    const full = why.cells.filter(([r, c]) => !capped.some(([y, x]) => y === r && x === c));
    const types = why.other_types.join(", ") || "none";
    if (full.length) {
      add(full, `${plural(full.length, "house", "houses")} worth ${why.per_house} each (${plural(why.per_house, "other building type", "other building types")} in the city: ${types}), ${place(full)}: ${plural(full.length * why.per_house, "point", "points")}`,
        String(why.per_house));
    }
    if (capped.length) {
      add(capped, `${plural(capped.length, "house", "houses")} next to a factory, worth only 1 each, ${place(capped)}: ${plural(capped.length, "point", "points")}`, "1");
    }
  },
  factories({ why, points, grid, add, lines, table }) {
    const cells = cellsOf(grid, (b) => b === "factory");
    if (cells.length) {
      add(cells, `${plural(cells.length, "factory", "factories")} worth ${why.per_tile} each (${ORDINAL[why.rank]} at the table), ${place(cells)}: ${plural(points, "point", "points")}`,
        String(why.per_tile));
    }
    const ranking = table.scores.cities.map((c, i) => (c ? { i, count: c.explanation.factories.count, rank: c.factory_rank, per: c.explanation.factories.per_tile } : null))
      .filter(Boolean).sort((a, b) => b.count - a.count);
    lines.push({ text: "Factories at the table: " + ranking.map((c) => `city ${c.i + 1} (${cityName(table, c.i)}) ${c.count}${c.count ? `, ${c.per} each` : ""}`).join("; ")
      + ". The most score 4 each, the second most 3, the others 2." });
  },
};

// {city, title, lines: [{group, badge, text}], marks: {"r:c": {group, badge}}}
function explainInWords(table, category, index) {
  const scored = table.scores.cities[index];
  const why = scored.explanation[category];
  const points = scored.scores[category];
  const lines = [];
  const marks = {};
  const add = (cells, text, badge) => {
    const group = lines.length;
    lines.push({ group, badge, text });
    for (const [r, c] of cells) marks[`${r}:${c}`] = { group, badge };
  };
  const title = `${category[0].toUpperCase()}${category.slice(1)}: ${plural(points, "point", "points")}`;
  if (why && EXPLAIN[category]) EXPLAIN[category]({ why, points, grid: table.cities[index].grid, add, lines, marks, table });
  if (!why || (lines.length === 0)) lines.push({ text: `No ${category} in this city.` });
  return { city: index, title, lines, marks };
}

function whyBox(h) {
  const box = el("div", { className: "why" }, el("p", { className: "why-title", textContent: h.title }));
  if (h.lines.length) {
    const list = el("ul", { className: "why-lines" });
    for (const line of h.lines) {
      const item = el("li", {});
      if (line.group !== undefined) {
        const swatch = el("b", { className: `badge g${line.group % GROUP_COLOURS}`, textContent: line.badge });
        swatch.setAttribute("aria-hidden", "true");
        item.append(swatch, " ");
      }
      item.append(line.text);
      list.append(item);
    }
    box.append(list);
  }
  return box;
}

// --- a score on the scoreboard, and the results ----------------------------------------

// Automaville from tile counts, scored "maximally" (solo beginner mode).
function countsExplanation(category, why, points) {
  const sets = (list) => list.map((s) => `${s.points} for ${s.size}`).join(" + ");
  switch (category) {
    case "shops": return `Shops ${points}: ${why.count} as if optimally placed` + (why.count ? ` (${sets(why.sets)})` : "");
    case "factories": return `Factories ${points}: ${why.count} × ${why.per_tile} (rank ${why.rank || "-"} at the table)`;
    case "taverns": return `Taverns ${points}: best sets ` + (why.sets.map((s) => `${s.points} for ${s.kinds.map((k) => k.slice(7)).join("+")}`).join(", ") || "none");
    case "offices": return `Offices ${points}: ${sets(why.sets) || "none"}` + (why.tavern_bonus ? `, +1 for each of the ${why.count} (Automaville has a tavern)` : "");
    case "parks": return `Parks ${points}: ${plural(why.count, "park", "parks")}, each pair apart from the others` + (why.count ? ` (${why.groups.map((g) => `${g.points} for ${g.size === 2 ? "a pair" : "one"}`).join(" + ")})` : "");
    default: return `Houses ${points}: ${why.count} × ${why.per_house} (${why.other_types.join(", ") || "no other types"}; none next to a factory)`;
  }
}

// A score's button: tapped, a sheet over the scoreboard draws its cells on the city and says why.
export function scoreButton(page, city, i, category) {
  const name = cityName(page.table, i);
  const button = el("button", { type: "button", className: "score", textContent: city.scores[category] });
  button.setAttribute("aria-label", `${category}, ${name}: ${city.scores[category]}, show why`);
  button.setAttribute("aria-haspopup", "dialog");
  button.dataset.category = category;
  button.dataset.city = i + 1;
  button.dataset.focus = `score:${category}:${i}`;
  button.addEventListener("click", () => {
    const why = city.explanation[category];
    openWhy(page, i, city.mode === "counts"
      ? { city: i, marks: {}, title: countsExplanation(category, why, city.scores[category]), lines: [] }
      : explainInWords(page.table, category, i));
  });
  return button;
}

// The sheet (a modal dialog of the page): the city's title, its cells drawn, the lines that say why.
function openWhy(page, index, h) {
  const sheet = $("why-sheet");
  $("why-sheet-title").textContent = cityTitle(page.table, index);
  const city = page.table.cities[index];
  const drawing = city.grid ? drawnGrid(page, city, index, h.marks) : null;
  $("why-sheet-body").replaceChildren(...[drawing, whyBox(h)].filter(Boolean));
  sheet.dataset.city = index + 1;
  showDialog(sheet); // (open already: only its content changes)
  sheet.querySelector("button").focus();
}

// Every city is known: the winner, then each player's final score with where it comes from:
// both their cities, the lower one (the one that counts) in bold; the two-player sum written
// out; Automaville's total with the solo difficulty's modifier.
export function results(table) {
  const s = table.scores;
  const box = el("div", { className: "results" }, el("p", { className: "winner", textContent: `Winner: ${s.winner.join(" and ")}` }));
  const list = el("ol", { className: "players podium" });
  for (const p of s.players) {
    const item = el("li", { value: p.rank }, el("span", { className: "place", textContent: ordinal(p.rank) }), " ",
      el("b", { className: "name", textContent: p.name }), ` ${plural(p.final, "point", "points")}`);
    item.dataset.rank = p.rank;
    item.append(el("span", { className: "from" }, ...whereFrom(table, p)));
    list.append(item);
  }
  box.append(el("h3", { textContent: "Final scores" }), list);
  s.tiebreaks.forEach((t) => box.append(el("p", { className: "hint tie", textContent: `Tie: ${t}` })));
  return box;
}

const ordinal = (n) => `${n}${["th", "st", "nd", "rd"][n % 100 > 10 && n % 100 < 14 ? 0 : n % 10] || "th"}`;

// A player's cities as the final score takes them: "city 1 (Ann & Ben) 48, the lower one, counts ·
// city 3 (Cy & Ann) 53".
function whereFrom(table, p) {
  const cities = p.cities.map((number, k) => {
    const scored = table.scores.cities[number - 1];
    const total = scored && scored.difficulty ? scored.difficulty.line : p.city_totals[k]; // "53 + 4 = 57 (difficulty 6)"
    return { number, text: `city ${number} (${cityName(table, number - 1)}) ${total}` };
  });
  if (p.final_city === null || p.final_city === undefined) { // two players: both cities count
    return [`${cities.map((c) => c.text).join(" + ")} = ${p.final}, the sum of both cities`];
  }
  const parts = [];
  cities.forEach((c, k) => {
    if (k) parts.push(" · ");
    parts.push(c.number === p.final_city ? el("strong", { className: "counts", textContent: `${c.text}, the lower one, counts` }) : c.text);
  });
  return parts;
}

// --- a city's total moved by another city's tiles (factories are ranked across the table) -------

const shownTotal = (scored) => scored.scores.total + (scored.modifier || 0);
const sameTiles = (a, b) => JSON.stringify([a.grid, a.counts]) === JSON.stringify([b.grid, b.counts]);
const RANKED = ["none", "the most", "second most", "neither the most nor second most"];

// From one answer of the server (before) to the next (after): {seat: note} for each city whose
// tiles are the same but whose total moved, {seat: null} for each city whose tiles changed.
export function movedTotals(before, after, categories) {
  const notes = {};
  if (before.cities.length !== after.cities.length) return notes;
  after.cities.forEach((city, i) => {
    const [was, now] = [before.scores.cities[i], after.scores.cities[i]];
    if (!sameTiles(before.cities[i], city)) notes[i] = null;
    else if (was && now && shownTotal(was) !== shownTotal(now)) notes[i] = movedNote(after, i, was, now, categories);
  });
  return notes;
}

// "City 1 (Ann & Ben) went from 56 to 54: its factories are now second most, 3 each (city 3
// has more)": a category scored by its rank at the table says where the city ranks now. Cities
// are named by number: in a 2-player game a city bears one player's name, like their score.
function movedNote(table, index, was, now, categories) {
  const why = categories.filter((c) => was.scores[c] !== now.scores[c]).map((c) => {
    const mine = now.explanation[c];
    if (!mine || mine.rank === undefined) return `its ${c} score ${now.scores[c]} instead of ${was.scores[c]}`;
    const others = table.scores.cities.map((city, j) => ({ j, count: city && j !== index ? city.explanation[c].count : -1 }));
    const cities = (pick) => others.filter(pick).sort((a, b) => b.count - a.count).map(({ j }) => j + 1);
    const [more, tied] = [cities((o) => o.count > mine.count), cities((o) => o.count === mine.count)];
    const said = (numbers, verb) => `${numbers.length > 1 ? "cities" : "city"} ${listed(numbers)} ${numbers.length > 1 ? "have" : "has"} ${verb}`;
    const compared = more.length ? ` (${said(more, "more")})` : tied.length ? ` (${said(tied, "as many")})` : "";
    return `its ${c} are now ${RANKED[mine.rank]}, ${mine.per_tile} each${compared}`;
  });
  return `City ${index + 1} (${cityName(table, index)}) went from ${shownTotal(was)} to ${shownTotal(now)}: ${why.join("; ")}`;
}

// The notes under the scoreboard (a live region kept in the page): rewritten only when they change.
export function showMoved(page) {
  const notes = Object.keys(page.moved).sort((a, b) => a - b).map((seat) => page.moved[seat]);
  const box = document.getElementById("moved-notes");
  if (box.dataset.notes === JSON.stringify(notes)) return;
  box.dataset.notes = JSON.stringify(notes);
  box.replaceChildren(...notes.map((note) => el("p", { className: "moved", textContent: note })));
}
