// What the table page knows: the table (the server's last answer) and what the page shows beyond
// it, in one object that every part of the page is given (no module keeps state of its own).
import { $, call, inView } from "../common.js";
import { tableApi } from "./api.js";
import { movedTotals } from "./scores.js";

// root: the element with data-table (the table's id) and data-game (the game's words and limits,
// from the rules engine: one definition, in Python; see pages.py). draw(page) renders the page.
export function createPage(root, draw) {
  const page = {
    api: tableApi(root.dataset.table),
    game: JSON.parse(root.dataset.game),
    table: null,
    learning: null, // what the reader learned from the players (GET /api/learning)
    loading: null, // the first GET of the table: controls used before it arrived wait for it
    cardErrors: {}, // city index -> message shown in that city's card
    moved: {}, // city index -> why its total moved though its tiles did not (another city's factories)
    confirmed: new Set(), // "index:r:c" of flagged cells the player confirmed as read
    busy: new Map(), // city index -> "Reading…" / "Waiting…" while its photo is sent and read
    retry: new Map(), // city index -> the photo that did not reach the server, for "Try again"
    several: new Map(), // city index -> its photo, which shows more cities: "Read every city in it"
    countsOpen: new Set(), // city indexes whose "Type counts" form is open
    countsTyped: new Map(), // city index -> counts typed in its form that the server refused
    paint: null, // {city, building}: paint mode, each tapped cell becomes that building
    nextCell: null, // {city, r, c}: the empty cell chosen after one was set with the picker
    pending: new Map(), // "index:r:c" -> building painted, not yet answered by the server
    sending: Promise.resolve(), // painted cells go to the server one after another
    seatShot: null, // the whole-table photo (its cities' reading.table_photo) whose seating panel is open
    seatArrived: false, // that panel opened for cities that came in while the page waited
    unchecked: null, // the whole-table photo whose seating is not checked yet: no winner is named meanwhile
    swapFrom: null, // the seat chosen first in the seating panel: the next seat chosen swaps with it
    reordering: false, // a new seating is being sent
    wholeTable: false, // a whole-table photo is being sent and read
    undo: null, // {index, text, undo, after}: the last change to a city, offered to be taken back (undo.js)
    snackbarTimer: null, // hides the snackbar a while after it shows (undo.js)

    render: () => draw(page),
    showError: (message) => {
      const box = $("table-error");
      box.textContent = message || "";
      if (message) inView(box); // the button pressed may lie a screen below it
    },
    // The server's answer to a change (or a GET) becomes the table shown; a city whose total
    // moved though its tiles did not (factories are ranked at the table) gets a note saying why.
    answer: (table) => {
      if (page.table) noteMoved(page, page.table, table);
      const before = page.unchecked;
      page.table = table;
      page.unchecked = table.scores.unchecked || null;
      // a whole-table photo whose seating waits to be checked: its panel opens on a reload, and
      // when its cities come in while this page waited for them (reloaded, or Back and Forward,
      // during the read)
      if (page.unchecked && page.unchecked !== before && !page.seatShot) {
        page.seatShot = page.unchecked;
        page.seatArrived = true; // said and brought into view as a photo sent from here is
      }
    },
    load: async () => {
      page.answer(await call("GET", page.api));
      page.render();
      page.refreshLearning();
    },
    // True once the table is here; a tap or photo chosen before that waits for it instead of failing.
    loaded: async () => {
      if (!page.table) {
        try { await page.loading; } catch (error) { return false; }
      }
      return Boolean(page.table);
    },
    // Whether the reader learned anything decides if a photo's card offers "Read again"; not essential.
    refreshLearning: async () => {
      const before = Boolean(page.learning && page.learning.active);
      try { page.learning = await call("GET", "/api/learning"); } catch (error) { return; }
      const offered = page.table && page.table.cities.some((city) => city.photo);
      if (offered && Boolean(page.learning.active) !== before) page.render();
    },
  };
  return page;
}

// The notes on cities whose total moved from table `before` to `after` though their tiles did not.
export function noteMoved(page, before, after) {
  for (const [seat, note] of Object.entries(movedTotals(before, after, page.game.categories))) {
    if (note) page.moved[seat] = note;
    else delete page.moved[seat];
  }
}

export function setCardError(page, index, message) {
  if (message) page.cardErrors[index] = message;
  else delete page.cardErrors[index];
}

export function forgetConfirmed(page, index) {
  for (const key of [...page.confirmed]) if (key.startsWith(`${index}:`)) page.confirmed.delete(key);
}

// render() rebuilds the page; the control that had the keyboard focus gets it back.
export function focusedKey() {
  const node = document.activeElement;
  return node && node.dataset ? node.dataset.focus : undefined;
}

export function refocus(key) {
  if (!key) return;
  const node = [...document.querySelectorAll("[data-focus]")].find((n) => n.dataset.focus === key);
  if (node && !node.disabled) node.focus({ preventScroll: true });
}

