// The last change to a city, taken back from a snackbar at the bottom of the page: a corrected
// cell, a painted cell, a city typed over, a new photo of a city (the server keeps what the city
// held before). Deleting the table is asked about first, and undone from the home page.
// The snackbar goes after a while (it covers the page's foot), not while the mouse or the
// keyboard is on it.
import { $, call } from "../common.js";
import { setCardError } from "./state.js";

const SHOWN_MS = 10000;

// A city's state as far as an undo cares: what it holds, and whether it has a photo.
const stateOf = (city) => JSON.stringify([city.grid, city.counts, Boolean(city.photo)]);

// After a change to city index (the server's answer is page.table): say what changed, and
// offer undo(), an async function that sends the change back and resolves to the server's answer.
export function offerUndo(page, index, text, undo) {
  page.undo = { index, text, undo, after: stateOf(page.table.cities[index]) };
  showUndo(page);
}

export function dropUndo(page) {
  page.undo = null;
  showUndo(page);
}

// The snackbar's message is a live region kept in the page, rewritten only when it changes.
export function showUndo(page, said = "") {
  const { undo } = page;
  const text = undo ? undo.text : said;
  $("snackbar").hidden = !text;
  if ($("snackbar-text").textContent !== text) $("snackbar-text").textContent = text;
  $("snackbar-undo").hidden = !undo;
  $("snackbar-undo").disabled = Boolean(undo && undo.running);
  // room under the page for the bar as tall as it is (its text may wrap on a small phone),
  // so that nothing stays out of reach beneath it
  document.documentElement.style.setProperty("--snackbar-room", `${$("snackbar").offsetHeight + 24}px`);
  hideLater(page);
}

// Someone is on the snackbar: the mouse over it, or the keyboard's focus in it (a finger's tap
// leaves neither behind).
const held = (bar) => bar.matches(":has(:focus-visible)") || (matchMedia("(hover: hover)").matches && bar.matches(":hover"));

// The snackbar shown goes in SHOWN_MS from now, or SHOWN_MS after someone leaves it; an undo
// being sent keeps it.
function hideLater(page) {
  clearTimeout(page.snackbarTimer);
  const bar = $("snackbar");
  if (bar.hidden || held(bar)) return;
  page.snackbarTimer = setTimeout(() => {
    if (page.undo && page.undo.running) return;
    page.undo = null;
    showUndo(page);
  }, SHOWN_MS);
}

async function runUndo(page) {
  const { undo } = page;
  if (!undo || undo.running) return;
  await page.sending; // cells painted before are answered first
  const city = page.table.cities[undo.index];
  if (stateOf(city) !== undo.after) { // changed since (a photo, another tap): nothing is undone
    page.undo = null;
    showUndo(page, `City ${undo.index + 1} changed since: nothing was undone.`);
    return;
  }
  undo.running = true;
  showUndo(page);
  try {
    page.answer(await undo.undo());
    setCardError(page, undo.index, "");
    page.undo = null;
    page.nextCell = null;
    page.render();
    showUndo(page, "Undone.");
  } catch (error) {
    undo.running = false;
    setCardError(page, undo.index, error.message);
    page.render();
  }
}

export function wireUndo(page) {
  $("snackbar-undo").addEventListener("click", () => runUndo(page));
  $("snackbar-close").addEventListener("click", () => { page.undo = null; showUndo(page); });
  for (const held of ["pointerenter", "focusin"]) $("snackbar").addEventListener(held, () => clearTimeout(page.snackbarTimer));
  for (const left of ["pointerleave", "focusout"]) $("snackbar").addEventListener(left, () => setTimeout(() => hideLater(page)));
}

// The usual undos: a cell back to what it showed, a whole grid back to what it was.
export const putCell = (page, index, r, c, building) => () => call("PUT", `${page.api}/cities/${index + 1}/cells/${r + 1}/${c + 1}`, { building });
export const putGrid = (page, index, grid) => () => call("PUT", `${page.api}/cities/${index + 1}/grid`, { grid });
export const restoreCity = (page, index) => () => call("POST", `${page.api}/cities/${index + 1}/restore`);
