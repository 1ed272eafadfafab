// The table page: photos in, grids shown over the warped photo, taps to correct, scoreboard.
// This module wires the page's controls and renders it; each part of the page is a module.
import { $, ask, askText, call } from "../common.js";
import { takeFiles } from "./api.js";
import { cityCard, photoTargets, sendPhotos } from "./cards.js";
import { typedCount } from "./grid.js";
import { isFinal, showScoreboard } from "./scoreboard.js";
import { showMoved } from "./scores.js";
import { fitTags } from "./seat-tags.js";
import { closeSeating, emptySeats, fitSeating, renderSeating, seatingDiagram, sendTablePhoto, turnSeating } from "./seating.js";
import { createPage, focusedKey, refocus } from "./state.js";
import { wireUndo } from "./undo.js";
import { ago, cityName, listed } from "./words.js";

function render(page) {
  const { table } = page;
  const focus = focusedKey();
  const anchor = cardInView();
  document.title = `${table.name} · Between Two Cities`;
  $("table-name").textContent = table.name;
  const variant = { 1: "solo against Automaville", 2: "two-player variant" }[table.players.length] || `${table.players.length} players`;
  $("seating").textContent = table.players.length === 1
    ? `${table.players[0]}, ${variant} · difficulty ${table.difficulty}`
    : `${variant}, seated clockwise: ${table.players.join(", ")}`;
  $("seating-diagram").replaceChildren(seatingDiagram(table));
  fitSeating();
  $("still-to-add").textContent = stillToAdd(page);
  $("reading-now").textContent = readingNow(page);
  const cities = $("cities");
  cities.replaceChildren(...table.cities.map((city, index) => cityCard(page, city, index)));
  showScoreboard(page);
  showMoved(page);
  // Once the winner is known the results come first, right under the table's name.
  const board = $("scoreboard-card");
  const complete = isFinal(page);
  $("scoreboard-title").textContent = complete ? "Results" : "Scoreboard";
  if (complete && board.previousElementSibling !== $("table-card")) $("table-card").after(board);
  if (!complete && cities.nextElementSibling !== board) cities.after(board);
  $("all-photos-button").disabled = page.busy.size > 0;
  $("table-photo-button").disabled = page.busy.size > 0;
  $("table-card").setAttribute("aria-busy", String(page.wholeTable));
  renderSeating(page);
  $("export-json").href = `${page.api}/export.json`;
  $("export-csv").href = `${page.api}/export.csv`;
  keepInView(anchor);
  refocus(focus);
}

// The city card the player is looking at, and where it is on screen: the cities are drawn anew
// on every change (a photo read, a cell corrected, another phone's change), and the cards
// around it change height, so the page keeps that card where it was rather than jump.
function cardInView() {
  const cards = [...document.querySelectorAll("#cities .city")];
  const card = cards.find((c) => c.getBoundingClientRect().top >= 0 && c.getBoundingClientRect().top < innerHeight)
    || cards.find((c) => c.getBoundingClientRect().bottom > 0);
  return card && scrollY > 0 ? { city: card.dataset.city, top: card.getBoundingClientRect().top } : null;
}

function keepInView(anchor) {
  const card = anchor && document.querySelector(`#cities .city[data-city="${anchor.city}"]`);
  if (card) window.scrollBy(0, card.getBoundingClientRect().top - anchor.top);
}

// Once some cities are in, which are still to add (a whole-table photo may leave some out) and
// which are typed in part ("city 3 (Cy & Dee) has 1 of 16 tiles"): the scores wait for both.
function stillToAdd(page) {
  const { table } = page;
  const empty = emptySeats(table);
  const started = table.cities.map((_, i) => i).filter((i) => !table.scores.cities[i] && !empty.includes(i));
  if (empty.length === table.cities.length || !(empty.length + started.length)) return "";
  const parts = [];
  if (empty.length) {
    const cities = empty.map((i) => `city ${i + 1} (${cityName(table, i)})`);
    parts.push(`Still to add: ${listed(cities)}. Photograph ${empty.length === 1 ? "it" : "each"} on its card below, or type it in.`);
  }
  if (started.length) {
    const cities = started.map((i) => `city ${i + 1} (${cityName(table, i)}) has ${typedCount(page, table.cities[i], i)} of 16 tiles`);
    parts.push(`Still to finish: ${listed(cities)}.`);
  }
  return parts.join(" ");
}

// Photos of this table being read (sent from another phone, or before this page was loaded):
// their cities are not here yet, and nobody should photograph them again meanwhile.
function readingNow(page) {
  if (page.wholeTable || page.busy.size) return ""; // this phone's own read shows its progress
  return (page.table.reading_now || []).map((read) => `A photo of ${read.what} is being read `
    + `(sent ${ago(read.seconds)}): this page shows it when it is done.`).join(" ");
}

function wire(page) {
  wireUndo(page);
  $("all-photos-button").addEventListener("click", () => $("all-photos").click());
  $("all-photos").addEventListener("change", async (e) => {
    const files = takeFiles(e.target);
    if (files.length && await page.loaded()) sendPhotos(page, files, photoTargets(page, files.length));
  });
  $("table-photo-button").addEventListener("click", () => $("table-photo").click());
  $("table-photo").addEventListener("change", (e) => sendTablePhoto(page, takeFiles(e.target)[0]));
  $("seating-right").addEventListener("click", () => closeSeating(page));
  $("seating-back").addEventListener("click", () => turnSeating(page, -1));
  $("seating-on").addEventListener("click", () => turnSeating(page, 1));
  window.addEventListener("resize", () => {
    if (!page.table) return;
    const focus = focusedKey();
    showScoreboard(page); // cities as columns or rows: whichever fits the new width
    if (page.seatShot) fitTags();
    refocus(focus);
  });
  $("rename").addEventListener("click", async () => {
    if (!(await page.loaded())) return;
    const name = await askText("Table name", "Rename", page.table.name, Number($("rename").dataset.longest));
    if (!name) return;
    try {
      page.answer(await call("PATCH", page.api, { name }));
      page.showError(""); // a refusal of an earlier name no longer applies
      page.render();
    } catch (error) { page.showError(error.message); }
  });
  $("delete").addEventListener("click", async () => {
    if (!(await page.loaded())) return;
    if (!(await ask(`Delete ${page.table.name}?`, "Delete"))) return;
    try { await call("DELETE", page.api); } catch (error) { page.showError(error.message); return; }
    sessionStorage.setItem("deleted-table", JSON.stringify({ id: page.table.id, name: page.table.name }));
    location.href = "/"; // where a snackbar offers to bring it back
  });
}

// Another phone at the table may change it: this one looks again every few seconds while it is
// shown (and when it comes back into view), but never in the middle of something here.
const REFRESH_MS = 5000;

const quiet = (page) => !page.gone && !document.hidden && page.table && !page.busy.size && !page.pending.size
  && !page.paint && !page.nextCell && page.swapFrom === null && !page.reordering && !page.wholeTable
  && !page.countsOpen.size && !$("picker").open && !$("why-sheet").open && !document.querySelector(".corner-wrap .dot, dialog.ask");

async function refresh(page) {
  if (!quiet(page)) return;
  let table;
  try {
    table = await call("GET", page.api);
  } catch (error) {
    if (error.status === 404) gone(page); // deleted on another phone
    return; // else offline: the page stays as it was
  }
  const reading = (t) => (t.reading_now || []).length > 0;
  if (reading(table)) refreshSoon(page); // a photo being read: its cities come in seconds
  if (!quiet(page) || (table.updated === page.table.updated && !reading(table) && !reading(page.table))) return;
  page.answer(table);
  page.render();
}

const SOON_MS = 1500;
let soon = null;
function refreshSoon(page) {
  if (!soon) soon = setTimeout(() => { soon = null; refresh(page); }, SOON_MS);
}

// The table is no more (deleted, maybe on another phone): say so, and offer nothing to tap
// (its cities, buttons and exports are hidden: each would fail), nor ask the server again.
function gone(page) {
  page.gone = true;
  page.showError("This table was deleted, or its link is wrong: open a table from the home page.");
  document.body.classList.add("table-gone");
}

const page = createPage($("cities"), render);
wire(page);
setInterval(() => refresh(page), REFRESH_MS);
document.addEventListener("visibilitychange", () => refresh(page));
page.loading = page.load();
page.loading.then(() => { if ((page.table.reading_now || []).length) refreshSoon(page); }, () => {});
page.loading.catch((error) => (error.status === 404 ? gone(page) : page.showError(error.message)));
