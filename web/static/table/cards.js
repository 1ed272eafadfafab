// A city's card: its photo buttons, typing in, Automaville's counts, corners, teaching the reader.
import { ask, buildingName, call, el } from "../common.js";
import { hideProgress, mayBePhoto, shrink, takeFiles, upload } from "./api.js";
import { correctedCells, flaggedCount, gridView, paintTools, typedCount, typingCount } from "./grid.js";
import { polygonPoints } from "./drawing.js";
import { sendTablePhoto } from "./seating.js";
import { forgetConfirmed, noteMoved, setCardError } from "./state.js";
import { offerUndo, restoreCity, showUndo } from "./undo.js";
import { cityName, cityTitle, isAutomaville, listed, plural, sentence } from "./words.js";

// City photos, one after another, to the cities at ``indexes`` (in seating order; the first
// files.length of them); each answer is the table.
// A photo that could not be read says why in its city's card; one that did not reach the server
// (network, server error) is kept for "Try again". A new photo of one city can be undone (the
// server keeps what the city showed before); photos of several cities that would wipe the
// player's work (a city typed in, corrections of a reading) are asked about first, unless no
// file may be a photo (``mayBePhoto``: the server refuses them and nothing changes).
export async function sendPhotos(page, files, indexes, asked = false) {
  if (!files.length || !(await page.loaded())) return;
  const { busy } = page;
  if (busy.size || page.reordering) { page.showError("Photos are still being read: wait for them first."); return; }
  const targets = indexes.slice(0, files.length);
  const count = targets.length;
  if (!asked && files.length > count && !(await leaveOut(files.length, targets))) return;
  if (!asked && count > 1 && Array.from(files).some(mayBePhoto) && !(await replaceWork(page, targets))) return;
  const retake = count === 1 && holdsSomething(page.table.cities[targets[0]]);
  page.showError("");
  const failed = [];
  const [tableBefore, movedBefore] = [page.table, { ...page.moved }];
  for (const index of targets) busy.set(index, "Waiting…");
  try {
    for (let k = 0; k < count; k++) {
      const index = targets[k];
      busy.set(index, "Reading…");
      page.render();
      const result = await upload(`${page.api}/cities/${index + 1}/photo`, await shrink(files[k]), `City ${index + 1} (${cityName(page.table, index)})`,
        undefined, undefined, count > 1);
      busy.delete(index);
      if (result.ok) {
        page.retry.delete(index);
        forgetConfirmed(page, index);
        setCardError(page, index, "");
        page.answer(result.data);
        if ((page.table.cities[index].reading || {}).more_cities) page.several.set(index, files[k]);
        else page.several.delete(index);
        if (retake) offerUndo(page, index, `City ${index + 1} read from the new photo.`, restoreCity(page, index));
        page.render();
        page.refreshLearning();
      } else {
        if (result.status === 0 || result.status >= 500) page.retry.set(index, files[k]);
        else page.retry.delete(index); // the photo itself: another photo or the corners help, not a retry
        const refused = result.status >= 400 && result.status < 500 && !result.data.table; // kept nothing
        const why = `Photo not read: ${result.data.error}`;
        setCardError(page, index, refused ? `${sentence(why)}${NOTHING_CHANGED}` : why);
        failed.push(`City ${index + 1}`);
        if (result.data.table) { // no city found: the photo is kept, for its corners
          page.answer(result.data.table);
          if (retake) offerUndo(page, index, `City ${index + 1}: the new photo was not read.`, restoreCity(page, index));
        }
        else if (result.status === 409) await page.load(); // another photo of this city came first
      }
    }
  } catch (error) {
    page.showError(error.message);
  } finally {
    if (count > 1) { // the player saw none of the states between: only what the batch moved
      page.moved = movedBefore;
      noteMoved(page, tableBefore, page.table);
    }
    busy.clear();
    hideProgress();
    page.render();
  }
  // several photos at once: say here which cities to look at (each card says why)
  if (count > 1 && failed.length) page.showError(`${plural(failed.length, "photo", "photos")} not read: see ${listed(failed)}.`);
}

// More photos chosen than cities to put them in: the player says whether the first are read
// and the rest left out (none is dropped without a word).
function leaveOut(chosen, targets) {
  const n = targets.length;
  const cities = n > 1 ? `cities ${listed(targets.map((i) => i + 1))}` : `city ${targets[0] + 1}`;
  const left = chosen - n;
  const read = n === 1 ? "the first is read" : `the first ${n} are read`;
  const out = left === 1 ? "the last is left out" : `the last ${left} are left out`;
  return ask(`${plural(chosen, "photo", "photos")} chosen for ${plural(n, "city", "cities")} (${cities}): ${read}, ${out}.`,
    n === 1 ? "Read the first" : `Read the first ${n}`);
}

export function cityCard(page, city, index) {
  const { table, busy, paint } = page;
  const card = el("section", { className: "card city", id: `city-${index + 1}` });
  card.dataset.city = index + 1;
  card.append(el("h2", { textContent: cityTitle(table, index) }));
  const scores = table.scores.cities[index];
  if (scores) card.append(el("p", { className: "total", textContent: `${scores.scores.total} points` }));
  if (page.moved[index]) card.append(el("p", { className: "moved", textContent: page.moved[index] }));
  for (const warning of (scores && scores.warnings) || []) card.append(el("p", { className: "hint warn supply", textContent: `Check this city: ${warning}.` }));
  const photo = el("input", { type: "file", accept: "image/*", hidden: true });
  photo.setAttribute("capture", "environment");
  const fromHere = () => table.cities.map((_, i) => i).slice(index); // several: this city on
  photo.addEventListener("change", () => sendPhotos(page, takeFiles(photo), fromHere()));
  const pick = el("input", { type: "file", accept: "image/*", hidden: true });
  pick.addEventListener("change", () => sendPhotos(page, takeFiles(pick), fromHere()));
  const actions = el("div", { className: "row" },
    fileButton("Take photo", "small primary take-photo", photo, index), photo,
    fileButton("Choose photo", "small choose-photo", pick, index), pick);
  // both labels take the button's room, one shown: typing a first tile turns "Type in" into
  // "Type over" without the row growing (the grid would jump under the finger)
  const over = Boolean(city.counts) || hasTiles(city);
  const type = el("button", { type: "button", className: "small type-grid" },
    el("span", { textContent: "Type in", className: over ? "unshown" : "" }),
    el("span", { textContent: "Type over", className: over ? "" : "unshown" }));
  type.dataset.focus = `type:${index}`;
  type.addEventListener("click", () => typeOver(page, city, index));
  actions.append(type);
  const unread = city.photo && (!city.grid || (city.reading && city.reading.unread));
  if (isAutomaville(table, index)) {
    const open = page.countsOpen.has(index);
    const counts = el("button", { className: "small type-counts", textContent: city.counts ? "Change counts" : "Type counts" });
    counts.setAttribute("aria-expanded", String(open));
    counts.addEventListener("click", () => {
      if (page.countsOpen.has(index)) page.countsOpen.delete(index); else page.countsOpen.add(index);
      page.countsTyped.delete(index); // closed or opened anew: the counts as kept
      page.render();
    });
    actions.append(counts);
  }
  if (city.photo && !unread) {
    const adjust = el("button", { className: "small", textContent: "Adjust corners" });
    adjust.addEventListener("click", () => {
      adjust.disabled = true;
      const picker = cornerPicker(page, index, "Tap the city's four outer corners on the photo; it is read again.", false);
      const cancel = el("button", { type: "button", className: "small", textContent: "Cancel" });
      cancel.addEventListener("click", () => { picker.remove(); adjust.disabled = false; adjust.focus(); });
      picker.append(cancel);
      actions.after(picker);
    });
    actions.append(adjust);
  }
  card.append(actions);
  // A photo with no city found: one message, the server's reason while the page has it.
  const message = page.cardErrors[index];
  const apart = changedNothing(message); // about a photo not kept, not the one shown
  const why = (!apart && message) || "no city found in the last photo";
  const advice = /type the city in/.test(why) ? " Or take another photo." // (it says what to tap)
    : " Tap the city's four corners on it, type the city in, or take another photo.";
  if (unread) {
    // a retake of a city already read or typed in: its grid below still counts, and one tap
    // puts the city back as it was (the server kept it aside)
    const earlier = hasTiles(city);
    const kept = earlier ? " The city below is still the one from before this photo." : "";
    const picker = cornerPicker(page, index, `${sentence(why)}${advice}${kept}`);
    if (earlier) picker.append(keepAsItWas(page, index));
    card.append(picker);
  }
  if (city.counts) card.append(countsSummary(page, city));
  if (isAutomaville(table, index) && page.countsOpen.has(index)) card.append(countsForm(page, city, index));
  const typing = city.grid && !city.counts && !busy.has(index)
    && ((paint && paint.city === index) || typedCount(page, city, index) < 16);
  if (typing) card.append(paintTools(page, index));
  if (city.grid) card.append(gridView(page, city, index));
  if (typing) card.append(typingCount(page, city, index));
  if (city.photo && !unread && city.reading && city.reading.more_cities) card.append(severalCities(page, index));
  const corrected = correctedCells(city);
  const low = flaggedCount(page, index);
  const small = low && city.reading.small_tiles ? ` The tiles are only ${Math.round(city.reading.tile_px)} px wide in this photo: too small to be sure of any; a closer photo reads surely.` : "";
  const unsure = low && city.reading.hardly_sure ? " Hardly a tile reads surely in this photo: retake it in even light, without glare; if it is your own printing of the game, correct its cells and press “Reading is right” to teach the reader your tiles." : "";
  if (low) card.append(el("p", { className: "hint warn", textContent: `${plural(low, "cell", "cells")} to check (marked ?): tap to correct, or adjust the corners if the grid is off.${small}${unsure}` }));
  if (corrected.length) card.append(el("p", { className: "hint", textContent: `${plural(corrected.length, "cell", "cells")} corrected (marked ✎).` }));
  if (city.photo && !unread && city.grid && city.reading && city.reading.warp) card.append(teaching(page, city, index, low));
  const error = el("p", { className: "error card-error", textContent: ((!unread || apart) && message) || "" });
  error.setAttribute("role", "alert");
  card.append(error);
  if (page.retry.has(index) && page.cardErrors[index]) {
    const retry = el("button", { type: "button", className: "small primary retry", textContent: "Try again" });
    retry.title = "Send the same photo again";
    retry.dataset.focus = `retry:${index}`;
    retry.addEventListener("click", () => sendPhotos(page, [page.retry.get(index)], [index], true));
    card.append(retry);
  }
  if (busy.has(index)) showBusy(card, busy.get(index));
  return card;
}

// A button that drops a retake in which no city was found: the city as it was before it.
function keepAsItWas(page, index) {
  const button = el("button", { type: "button", className: "small keep-as-it-was", textContent: "Keep the city as it was" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      page.answer(await restoreCity(page, index)());
      setCardError(page, index, "");
      if (page.undo && page.undo.index === index) page.undo = null; // nothing left to undo
      showUndo(page, `City ${index + 1}: the photo without a city put aside.`);
    } catch (error) {
      setCardError(page, index, error.message);
    }
    page.render();
  });
  return button;
}

// Where "One photo per city" sends ``count`` photos: the cities not read yet, in seating order,
// when there are enough of them (a city read on its own card keeps its reading; one whose photo
// showed no city is not read yet); else every city from the first, as the hint says.
export function photoTargets(page, count) {
  const all = page.table.cities.map((_, i) => i);
  const unread = all.filter((i) => !holdsTiles(page.table.cities[i]));
  return unread.length >= count ? unread : all;
}

// Resolves true when a new photo of these cities wipes none of the player's work, or the player says so;
// ``sent`` is the city whose own photo is the one sent (read again for every city in it).
export async function replaceWork(page, indexes, sent = null) {
  const lost = lostWork(page, indexes, sent).map(([, what]) => what);
  return !lost.length || ask(`A new photo replaces ${listed(lost)}. Replace ${lost.length > 1 ? "them" : "it"}?`, "Replace");
}

// The player's work on these cities a new photo would wipe: [index, "City 1's own photo"] each.
export const lostWork = (page, indexes, sent = null) => indexes
  .map((index) => [index, workOn(page, index, index === sent)]).filter(([, what]) => what);

// A photo the server refused and kept nothing of (not an image, say) says so; on a card whose
// last photo showed no city, its message stands apart from the one about the photo shown.
const NOTHING_CHANGED = " Nothing was changed.";
const changedNothing = (message) => Boolean(message && message.endsWith(NOTHING_CHANGED));

// A city with anything in it: a photo, a reading, tiles typed in, Automaville's counts.
const holdsSomething = (city) => Boolean(city.photo) || holdsTiles(city);
// A city read or typed in: tiles in its grid, or Automaville's counts (not a photo alone, which
// may show no city).
const holdsTiles = (city) => Boolean(city.counts) || hasTiles(city);
// A city whose grid shows at least one tile (read or typed in).
const hasTiles = (city) => Boolean(city.grid && city.grid.flat().some(Boolean));

// What a new photo of a city would wipe: "City 1's 2 corrected cells", "City 2's 9 typed tiles",
// "City 3's own photo" (read from it, taken of it alone, closer than a photo of the whole table: a player
// who photographed each city keeps those readings unless they say so; a city read from a photo
// of the whole table is not asked about: a new photo of the table is taken to replace it).
function workOn(page, index, photoSent = false) {
  const city = page.table.cities[index];
  const fixed = correctedCells(city).length;
  const typed = !city.photo && city.grid ? city.grid.flat().filter(Boolean).length : 0;
  if (fixed) return `City ${index + 1}'s ${plural(fixed, "corrected cell", "corrected cells")}`;
  if (typed) return `City ${index + 1}'s ${plural(typed, "typed tile", "typed tiles")}`;
  const own = city.photo && hasTiles(city) && !(city.reading || {}).table_photo && !photoSent;
  return own ? `City ${index + 1}'s own photo` : null;
}

// A photo of several cities sent for one (the whole table, say): one of them was read for this
// city; while the page still holds the photo, one tap reads every city in it, as the whole
// table's photo (whose cities take this seat too: the server counts it as still to read).
function severalCities(page, index) {
  const box = el("div", { className: "several-cities" });
  box.append(el("p", { className: "hint warn", textContent: `This photo shows more than one city: only one of them was read, for City ${index + 1}.` }));
  const file = page.several.get(index);
  if (file) {
    const whole = el("button", { type: "button", className: "small primary read-every-city", textContent: "Read every city in it" });
    whole.dataset.focus = `several:${index}`;
    whole.addEventListener("click", () => sendTablePhoto(page, file, index));
    box.append(whole);
  } else {
    box.append(el("p", { className: "hint", textContent: "To read every city in it, send it with “Whole table in one photo” above." }));
  }
  return box;
}

// A real button opens the (hidden) file input: reachable with Tab, pressed with Enter or Space.
function fileButton(text, className, input, index) {
  const button = el("button", { type: "button", className, textContent: text });
  button.dataset.focus = `${className}:${index}`;
  button.addEventListener("click", () => input.click());
  return button;
}

// While its photo is sent and read, a city says so and cannot be changed.
function showBusy(card, text) {
  card.classList.add("reading");
  card.setAttribute("aria-busy", "true");
  card.querySelectorAll("button, input").forEach((control) => { control.disabled = true; });
  const overlay = el("div", { className: "reading-overlay", textContent: text });
  overlay.setAttribute("role", "status");
  card.append(overlay);
}

// "Type in" starts an empty grid; "Type over" empties a city, and Undo brings back what it held
// (its photo, reading and corrections too: the server keeps them aside).
async function typeOver(page, city, index) {
  const empty = [0, 1, 2, 3].map(() => [null, null, null, null]);
  const had = holdsSomething(city);
  const tiles = city.grid ? city.grid.flat().filter(Boolean).length : 0;
  const what = city.counts ? "its tile counts wiped" : !city.photo ? `its ${plural(tiles, "tile", "tiles")} wiped`
    : city.grid ? "its photo's reading put aside" : "its photo put aside";
  try {
    page.answer(await call("PUT", `${page.api}/cities/${index + 1}/grid`, { grid: empty }));
    if (had) offerUndo(page, index, `City ${index + 1} ${city.grid || city.counts ? "typed over" : "typed in"}: ${what}.`, restoreCity(page, index));
    forgetConfirmed(page, index);
    setCardError(page, index, "");
    page.nextCell = { city: index, r: 0, c: 0 };
  } catch (error) { setCardError(page, index, error.message); }
  page.render();
}

// "Reading is right" teaches the reader this city's tiles, as a complete table's scoreboard does
// (the players used it: every city is right), but for the flagged cells nobody checked
// (``flagged`` of them); "Read again" uses what it learned.
function teaching(page, city, index, flagged) {
  const row = el("div", { className: "row teach" });
  if (city.reading.accepted) {
    row.append(el("p", { className: "hint learned-note", textContent: "The reader learned this city's tiles" }));
  } else if (page.table.scores.complete && !page.table.scores.unchecked && !city.reading.more_cities) {
    row.append(el("p", { className: "hint learned-note", textContent: flagged
      ? `The reader learned this city's tiles (the table is scored, so they count as right), but not the ${plural(flagged, "cell", "cells")} marked ? until checked`
      : "The reader learned this city's tiles (the table is scored, so they count as right)" }));
  } else {
    const accept = el("button", { className: "small primary accept", textContent: "Reading is right" });
    accept.title = "Every cell is right now: the reader learns your tiles from this city";
    accept.addEventListener("click", () => cityAction(page, accept, index, "accept", "Learning…"));
    row.append(accept);
  }
  if (page.learning && page.learning.active) {
    const again = el("button", { className: "small reread", textContent: "Read again" });
    again.title = "Read this photo again with the tiles learned so far; your corrections stay";
    again.addEventListener("click", () => cityAction(page, again, index, "reread", "Reading again…"));
    row.append(again);
  }
  if (city.reading.adapted) {
    row.append(el("span", { className: "hint", textContent: "Read with the tiles learned from you",
      title: "This photo was read with what the reader learned from your corrections and checked cities" }));
  }
  return row;
}

async function cityAction(page, button, index, action, busyText) {
  button.disabled = true;
  button.textContent = busyText;
  try {
    page.answer(await call("POST", `${page.api}/cities/${index + 1}/${action}`));
    setCardError(page, index, "");
    page.render();
    page.refreshLearning();
  } catch (error) {
    setCardError(page, index, error.message);
    page.render();
  }
}

function cornerPicker(page, index, message, warn = true) {
  // The player taps the four corners of the city on the photo (no city found: a warning; or to
  // adjust them: an instruction).
  const points = [];
  const img = el("img", { src: `${page.api}/cities/${index + 1}/photo.jpg?v=${page.table.updated}`, alt: "photo" });
  const note = el("p", { className: `hint${warn ? " warn" : ""} corner-note`, textContent: message });
  note.setAttribute("role", "status");
  const wrap = el("div", { className: "corner-wrap" }, img);
  const view = el("div", { className: "corner-view" }, wrap);
  const { corners, photo_size: size } = page.table.cities[index].reading || {};
  let zoom = null;
  if (!warn && corners && size) { // adjusting: the outline read, to tap around it
    wrap.insertAdjacentHTML("beforeend", `<svg class="corner-outline" viewBox="0 0 ${size[0]} ${size[1]}" preserveAspectRatio="none" aria-hidden="true" focusable="false"><polygon points="${polygonPoints(corners)}"/></svg>`);
    zoom = zoomToCity(view, wrap, corners, size);
  }
  // How many corners are tapped, and a way to start again after a tap that missed.
  const count = el("span", { className: "hint corner-count" });
  count.setAttribute("role", "status");
  const again = el("button", { type: "button", className: "small", textContent: "Start the corners over", hidden: true });
  const tapped = el("p", { className: "row corner-taps" }, count, again);
  const showTaps = () => {
    count.textContent = points.length ? `${points.length} of 4 corners tapped` : "";
    again.hidden = !points.length;
  };
  again.addEventListener("click", () => {
    points.length = 0;
    wrap.querySelectorAll(".dot").forEach((dot) => dot.remove());
    showTaps();
  });
  img.addEventListener("click", async (e) => {
    if (points.length === 4) return; // being read
    const box = img.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * img.naturalWidth;
    const y = ((e.clientY - box.top) / box.height) * img.naturalHeight;
    points.push([x, y]);
    wrap.append(el("i", { className: "dot", style: `left:${(100 * (e.clientX - box.left)) / box.width}%;top:${(100 * (e.clientY - box.top)) / box.height}%` }));
    showTaps();
    if (points.length === 4) {
      try {
        page.answer(await call("POST", `${page.api}/cities/${index + 1}/corners`, { corners: points }));
        forgetConfirmed(page, index);
        setCardError(page, index, "");
        if (!warn) offerUndo(page, index, `City ${index + 1} read inside the corners tapped.`, restoreCity(page, index));
        page.render();
        page.refreshLearning();
      } catch (error) {
        setCardError(page, index, error.message);
        page.load();
      }
    }
  });
  return el("div", {}, note, view, tapped, ...(zoom ? [zoom] : []));
}

// A city small in its photo (one of a whole-table photo): the picker shows the part of the
// photo around it, half a city wide on each side, so that its corners are large enough to
// tap; a button shows the whole photo instead (and back). Null when the city fills the photo.
const ZOOM_MARGIN = 0.5; // of the city's extent, on each side
const MIN_ZOOM = 1.5; // less than this is not worth hiding the rest of the photo
function zoomToCity(view, wrap, corners, [w, h]) {
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const side = Math.min(w, h, extent * (1 + 2 * ZOOM_MARGIN)); // a square crop
  const clamp = (v, most) => Math.max(0, Math.min(most, v));
  const x = clamp((Math.min(...xs) + Math.max(...xs) - side) / 2, w - side);
  const y = clamp((Math.min(...ys) + Math.max(...ys) - side) / 2, h - side);
  const scale = w / side;
  if (scale < MIN_ZOOM) return null;
  const button = el("button", { type: "button", className: "small" });
  const show = (zoomed) => {
    view.classList.toggle("zoomed", zoomed);
    view.style.aspectRatio = zoomed ? "1 / 1" : "";
    wrap.style.width = zoomed ? `${100 * scale}%` : ""; // margins in % are of the view's width
    wrap.style.marginLeft = zoomed ? `${(-100 * scale * x) / w}%` : "";
    wrap.style.marginTop = zoomed ? `${(-100 * scale * y) / w}%` : "";
    button.textContent = zoomed ? "Show the whole photo" : "Zoom to the city";
    button.onclick = () => show(!zoomed);
  };
  show(true);
  return button;
}

// Solo beginner mode: Automaville's tiles are sorted by type, so the player types counts.
function countsForm(page, city, index) {
  const { buildings: BUILDINGS, supply: SUPPLY, tiles: TILES } = page.game;
  const form = el("form", { className: "counts", noValidate: true }); // the server's one-line error says what is wrong
  form.setAttribute("aria-label", "Automaville's tiles by type");
  const fields = el("div", { className: "count-fields" });
  const shown = page.countsTyped.get(index) || city.counts || {}; // a refused try stays to fix
  for (const b of BUILDINGS) {
    const input = el("input", { type: "number", name: b, min: 0, max: Math.min(SUPPLY[b], TILES), step: 1, value: shown[b] || 0, inputMode: "numeric" });
    fields.append(el("label", { className: "count" }, `${buildingName(b)} `, input));
  }
  const send = el("button", { type: "submit", className: "small primary", textContent: "Score counts" });
  form.append(el("p", { className: "hint", textContent: "Beginner mode: how many of each building Automaville has (scored as if optimally placed)." }), fields, send);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const counts = {};
    for (const b of BUILDINGS) {
      const value = form.elements[b].value.trim();
      counts[b] = value === "" ? 0 : Number(value);
    }
    send.disabled = true;
    page.countsTyped.set(index, counts);
    try {
      page.answer(await call("PUT", `${page.api}/cities/${index + 1}/counts`, { counts }));
      page.countsOpen.delete(index);
      page.countsTyped.delete(index);
      setCardError(page, index, "");
    } catch (error) { setCardError(page, index, error.message); }
    page.render();
  });
  return form;
}

function countsSummary(page, city) {
  const parts = page.game.buildings.filter((b) => city.counts[b]).map((b) => `${buildingName(b)} ${city.counts[b]}`);
  return el("p", { className: "counts-summary", textContent: `Tiles sorted by type: ${parts.join(", ") || "none"}` });
}
