// The page's words: who built a city, how many of a thing, where cells are, a building spoken.
import { buildingName } from "../common.js";

export const esc = (text) => String(text).replace(/[<&>"]/g, (ch) => ({ "<": "&lt;", "&": "&amp;", ">": "&gt;", '"': "&quot;" })[ch]);
export const capital = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;
export const sentence = (text) => capital(/[.!?…]$/.test(text) ? text : `${text}.`);
export const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
export const ago = (seconds) => (seconds < 2 ? "just now" : `${seconds} s ago`); // "sent 4 s ago"
// ["A"] -> "A", ["A", "B", "C"] -> "A, B and C"
export const listed = (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join(""));

export const spoken = (b) => (b ? buildingName(b).toLowerCase() : "nothing"); // "drink tavern"
// A name with the letters the cell shows in it ("drink tavern, Td"), so voice control can say them.
export const named = (short, b) => (short[b].length > 1 ? `${spoken(b)}, ${short[b]}` : spoken(b));

// The players who build a city (seat index), Automartin and Automanon in solo; and whether it
// is the solo game's Automaville: as the server seats them (scorer.table.builders_of).
const builders = (table, index) => table.cities[index].builders;
export const isAutomaville = (table, index) => table.cities[index].automaville;

export function cityTitle(table, index) {
  return `City ${index + 1}${isAutomaville(table, index) ? " · Automaville" : ""} · ${builders(table, index).join(" & ")}`;
}

// The city as the players call it: by who built it ("Ann & Ben"), Automaville in solo.
export function cityName(table, index) {
  return isAutomaville(table, index) ? "Automaville" : builders(table, index).join(" & ");
}

// [[0, 3]] -> "row 1, column 4"; a line in a row -> "row 2, columns 1 to 3".
export function place(cells) {
  const sorted = [...cells].sort(([a, b], [c, d]) => a - c || b - d);
  const run = (ns) => ns.every((n, k) => k === 0 || n === ns[k - 1] + 1);
  const listed = (ns) => (ns.length > 2 && run(ns) ? `${ns[0] + 1} to ${ns[ns.length - 1] + 1}`
    : ns.map((n) => n + 1).join(ns.length === 2 ? " and " : ", "));
  if (sorted.length > 1 && sorted.every(([r]) => r === sorted[0][0])) {
    return `row ${sorted[0][0] + 1}, columns ${listed(sorted.map(([, c]) => c))}`;
  }
  if (sorted.length > 1 && sorted.every(([, c]) => c === sorted[0][1])) {
    return `column ${sorted[0][1] + 1}, rows ${listed(sorted.map(([r]) => r))}`;
  }
  return sorted.map(([r, c]) => `row ${r + 1}, column ${c + 1}`).join("; ");
}
