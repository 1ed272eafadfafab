// Where the cities sit: the diagram of the table seen from above, and one photo of the whole
// table (every city found, read and seated) with its panel where the players check the seating.
import { $, ask, call, el } from "../common.js";
import { hideProgress, mayBePhoto, shrink, upload } from "./api.js";
import { lostWork } from "./cards.js";
import { polygonPoints } from "./drawing.js";
import { isFinal } from "./scoreboard.js";
import { fitTags, seatTag } from "./seat-tags.js";
import { forgetConfirmed, refocus, setCardError } from "./state.js";
import { dropUndo } from "./undo.js";
import { ago, cityName, esc, listed, plural, sentence } from "./words.js";

// --- the table seen from above: seats around a circle, each city between its builders ----

export function seatingDiagram(table) {
  const p = table.players;
  const seats = p.length === 1 ? [p[0], "Automartin", "Automanon"] : p;
  const n = seats.length;
  const at = (angle, r) => [100 + r * Math.cos(angle), 100 + r * Math.sin(angle)];
  const seatAngle = (i) => -Math.PI / 2 + (2 * Math.PI * i) / n;
  // Two players: each builds a city on either side of their own seat.
  const cityAngle = (i) => (n === 2
    ? seatAngle(Math.floor(i / 2)) + (i % 2 ? 0.6 : -0.6)
    : seatAngle(i) + Math.PI / n);
  const svg = [`<svg viewBox="0 0 200 200" class="seating" role="group" aria-label="${esc(`Seating, clockwise: ${seats.join(", ")}`)}">`,
    `<circle cx="100" cy="100" r="62" fill="#6b4a33"/>`];
  seats.forEach((name, i) => {
    // Names run away from the table on its left and right, so long ones do not cover it.
    const cos = Math.cos(seatAngle(i));
    const anchor = cos > 0.35 ? "start" : cos < -0.35 ? "end" : "middle";
    const [x, y] = at(seatAngle(i), 70);
    svg.push(`<text x="${x}" y="${y}" text-anchor="${anchor}" dominant-baseline="middle" class="seat">${esc(name)}</text>`);
  });
  // Each city a square facing the table's middle, small enough to stay apart and on the table.
  const count = table.cities.length;
  const gap = Math.min(...table.cities.map((_, i) => (cityAngle((i + 1) % count) - cityAngle(i) + 4 * Math.PI) % (2 * Math.PI)));
  const side = Math.min(34, 0.7 * 2 * 42 * Math.sin(Math.min(gap, Math.PI) / 2));
  const ring = 58 - side / 2;
  table.cities.forEach((city, i) => {
    const [x, y] = at(cityAngle(i), ring);
    const turn = (cityAngle(i) * 180) / Math.PI + 90;
    const scored = table.scores.cities[i];
    const label = `City ${i + 1}${scored ? `: ${scored.scores.total + (scored.modifier || 0)} points` : ", not scored yet"}`;
    svg.push(`<a href="#city-${i + 1}" aria-label="${esc(label)}"><rect x="${x - side / 2}" y="${y - side / 2}" width="${side}" height="${side}" rx="4" transform="rotate(${turn.toFixed(1)} ${x} ${y})" class="${scored ? "read" : "empty"}"/>`,
      `<text x="${x}" y="${y}" text-anchor="middle" dominant-baseline="middle" class="city-label">${scored ? scored.scores.total + (scored.modifier || 0) : i + 1}</text></a>`);
  });
  svg.push("</svg>");
  const box = el("div", { className: "seating-wrap" });
  box.innerHTML = svg.join("");
  return box;
}

// Widen the diagram's view to what it draws, so that no name is clipped at its edges.
export function fitSeating() {
  const svg = document.querySelector("#seating-diagram svg");
  const box = svg && svg.getBBox();
  if (!box || !box.width) return; // not laid out (hidden): keep the default view
  svg.setAttribute("viewBox", `${box.x - 4} ${box.y - 4} ${box.width + 8} ${box.height + 8}`);
}

// --- one photo of the whole table: every city found, read and seated; players check the seating ---

// ``from``: the city whose own photo this is (it showed more than one city).
export async function sendTablePhoto(page, file, from = null) {
  if (!file || !(await page.loaded())) return;
  if (page.busy.size || page.reordering) { page.showError("Photos are still being read: wait for them first."); return; }
  const maybe = mayBePhoto(file); // (a file plainly no photo is refused, changing nothing)
  const asked = maybe ? await replacesWork(page, from) : [];
  if (!asked) return;
  if (maybe && !(await noOtherTablePhoto(page))) return;
  page.showError("");
  // The server may seat a city anywhere: every city waits while the photo is read.
  page.table.cities.forEach((_, i) => page.busy.set(i, "Reading…"));
  page.wholeTable = true;
  page.render();
  let result;
  try {
    result = await upload(`${page.api}/photo`, await shrink(file, 4000), "Whole table", "finding and reading every city…",
      "A busy tablecloth takes longer: up to half a minute.");
  } finally {
    page.busy.clear();
    page.wholeTable = false;
    hideProgress();
  }
  if (!result.ok) {
    // Nothing changed on the server: say why, in its words, and what the table still is.
    page.showError(`${sentence(result.data.error || "the photo was not read")} Nothing was changed.`);
    page.render();
    return;
  }
  const { photo: placed, ...answer } = result.data;
  page.answer(answer);
  dropUndo(page); // the change it offered to take back was to a city this photo replaced
  for (const seat of placed.seats) { forgetConfirmed(page, seat); setCardError(page, seat, ""); }
  page.paint = null;
  page.nextCell = null;
  const shot = (page.table.cities[placed.seats[0]].reading || {}).table_photo;
  if (shot) {
    page.seatShot = shot;
    page.swapFrom = null;
  }
  page.render();
  page.refreshLearning();
  if (!shot) return;
  const kept = asked.filter((index) => !placed.seats.includes(index));
  sayFound(page, placed.seats.length, kept);
  $("seat-panel-title").focus();
  $("seat-panel").scrollIntoView({ block: "start" }); // the photo and its seats, whole in view
}

// Another phone's photo of the whole table, being read now, fills the seats in a moment, and a
// second one would replace its cities: the player is asked first (true: send), and the page
// shows that read at once.
async function noOtherTablePhoto(page) {
  let table;
  try { table = await call("GET", page.api); } catch (error) { return true; } // offline: sending says so
  const other = (table.reading_now || []).find((read) => read.city === null);
  if (!other) return true;
  page.answer(table);
  page.render();
  return ask(`Another phone's photo of the whole table is being read right now (sent ${ago(other.seconds)}). Send yours anyway? Your photo's cities would replace that photo's.`, "Send anyway");
}

// A photo of the whole table takes every seat when it shows every city, else only the seats
// without a finished city (web/service.py, _free_seats); which, the server knows once it is
// read. So the player is asked first about their work it replaces if it shows them all, told
// what a photo of fewer does, and told afterwards what was kept. Resolves to the seats asked
// about (an array, maybe empty: send) or null (do not send).
async function replacesWork(page, from) {
  const lost = lostWork(page, page.table.cities.map((_, i) => i), from);
  if (!lost.length) return [];
  const what = listed(lost.map(([, work]) => work));
  const all = page.table.cities.length;
  const yes = await ask(`If this photo shows all ${all} cities, it replaces ${what}. A photo of fewer cities only fills the seats without a finished city. Send it?`, "Send");
  return yes ? lost.map(([index]) => index) : null;
}

// "4 cities found in this photo; 2 seats are still empty. Check the seating.": kept true while
// the panel is open (another phone may fill the empty seats meanwhile; see renderSeating);
// ``kept``: cities the player was asked about that the photo left as they were.
function sayFound(page, found, kept = []) {
  const empty = emptySeats(page.table).length;
  const cities = page.table.cities.length;
  const left = kept.length ? ` ${listed(kept.map((i) => `City ${i + 1}`))} kept as ${kept.length > 1 ? "they were" : "it was"}: `
    + `the photo showed ${found} of the table's ${cities} cities, so its cities went to the seats without a finished city.` : "";
  say(`${plural(found, "city", "cities")} found in this photo${empty ? `; ${plural(empty, "seat is", "seats are")} still empty` : ""}. Check the seating.${left}`);
  $("seat-status").dataset.found = found;
  $("seat-status").dataset.kept = kept.join(",");
}

// The whole-table photos the table's cities came from, in the order of the first seat of each.
function tableShots(table) {
  const shots = [];
  for (const city of table.cities) {
    const shot = city.photo && city.reading && city.reading.table_photo;
    if (shot && !shots.includes(shot)) shots.push(shot);
  }
  return shots;
}

// The seats whose city came from a whole-table photo, in the photo's order.
const seatsOf = (table, shot) => table.cities.map((city, i) => [city, i])
  .filter(([city]) => city.photo && city.reading && city.reading.table_photo === shot)
  .sort(([a], [b]) => a.reading.in_photo - b.reading.in_photo).map(([, i]) => i);

// The seats with no city yet: none read, none typed (in full or in part).
export const emptySeats = (table) => table.cities.map((_, i) => i)
  .filter((i) => !table.scores.cities[i] && !(table.scores.so_far || [])[i]);

// What to do about the seats still empty, or about cities the photo showed but did not read.
function todo(table, notes) {
  const empty = emptySeats(table);
  if (!empty.length) return notes.length ? "Every seat already has a city: nothing more to photograph." : "";
  const seats = `${empty.length === 1 ? "Seat" : "Seats"} ${listed(empty.map((i) => `${i + 1} (${cityName(table, i)})`))}`;
  return `${seats} ${empty.length === 1 ? "is" : "are"} still empty: photograph ${empty.length === 1 ? "its city" : "each of those cities"} on its own, closer, or type it in on its card below.`
    + (notes.length ? " Or take the whole photo again, every city whole in the frame." : "");
}

// The panel's status line (a live region kept in the page): written only when it changes.
function say(text) {
  const status = $("seat-status");
  delete status.dataset.found;
  delete status.dataset.kept;
  if (status.textContent !== text) status.textContent = text;
}

function openSeating(page, shot) {
  page.seatShot = shot;
  page.swapFrom = null;
  say("");
  page.render();
  $("seat-panel-title").focus();
}

// Close the seating panel; for a photo whose seating waits to be checked, that says it is right.
export async function closeSeating(page) {
  const shot = page.seatShot;
  if (page.unchecked === shot) {
    try {
      page.answer(await call("POST", `${page.api}/seating`, { table_photo: shot }));
    } catch (error) {
      page.showError(`The seating was not saved: ${error.message}. Try again.`);
      return;
    }
  }
  page.seatShot = null;
  page.swapFrom = null;
  say("");
  page.render();
  refocus(`check-seating:${shot}`);
  // What comes next in view: the winner, else the first seat still empty.
  const empty = emptySeats(page.table);
  const next = isFinal(page) ? $("scoreboard-card") : empty.length ? $(`city-${empty[0] + 1}`) : null;
  if (next) next.scrollIntoView({ block: "start" });
}

// "Check seating" for each whole-table photo whose panel is closed; the panel of the open one.
export function renderSeating(page) {
  const shots = tableShots(page.table);
  if (page.seatShot && !shots.includes(page.seatShot)) { // its cities were replaced (another phone)
    const newer = shots.includes(page.unchecked) ? page.unchecked : null;
    page.seatShot = newer;
    page.swapFrom = null;
    if (newer) say("Another phone's photo of the whole table replaced this one: here are its cities. Check the seating.");
  }
  $("seat-checks").replaceChildren(...shots.filter((shot) => shot !== page.seatShot).map((shot) => {
    const seats = seatsOf(page.table, shot).map((i) => i + 1);
    const check = el("button", { type: "button", className: "small check-seating",
      textContent: shots.length > 1 ? `Check seating of cities ${seats.join(", ")}` : "Check seating" });
    check.title = "The whole-table photo with its cities outlined: swap cities in the wrong seats";
    check.dataset.focus = `check-seating:${shot}`;
    check.disabled = page.busy.size > 0;
    check.addEventListener("click", () => openSeating(page, shot));
    return check;
  }));
  const panel = $("seat-panel");
  panel.hidden = !page.seatShot;
  if (!page.seatShot) return;
  const seats = seatsOf(page.table, page.seatShot);
  const found = $("seat-status").dataset.found;
  const kept = ($("seat-status").dataset.kept || "").split(",").filter(Boolean).map(Number);
  if (found) sayFound(page, Number(found), kept); // the seats still empty, as they are now
  else if (page.seatArrived) sayFound(page, seats.length);
  drawSeatPhoto(page, seats);
  listSeats(page);
  $("seating-right").disabled = page.busy.size > 0;
  $("seat-turns").hidden = seats.length < 3; // with two cities, turning is a swap
  for (const id of ["seating-back", "seating-on"]) $(id).disabled = page.busy.size > 0 || page.reordering;
  if (page.seatArrived) { // its cities came in while the page waited (reloaded, another phone)
    page.seatArrived = false;
    panel.scrollIntoView({ block: "start" });
  }
}

// The photo, every city read from it outlined and tagged with its seat, those not read dashed;
// and what the photo showed besides (cities cut by its edge or hidden).
function drawSeatPhoto(page, seats) {
  const { table, seatShot, swapFrom } = page;
  const kept = table.cities[seats[0]].reading; // each city keeps its photo's notes
  const { photo_size: [w, h] } = kept;
  const report = { notes: kept.photo_notes || [], unread: kept.photo_unread || [] };
  const box = $("seat-photo");
  let img = box.querySelector("img");
  if (!img || img.dataset.shot !== seatShot) { // the same photo stays (no reload when seats change)
    img = el("img", { src: `${page.api}/cities/${seats[0] + 1}/photo.jpg?v=${seatShot}` });
    img.dataset.shot = seatShot;
  }
  img.alt = `The whole-table photo: ${plural(seats.length, "city", "cities")} outlined, each with its seat number`;
  box.style.aspectRatio = `${w} / ${h}`;
  box.dataset.width = w;
  const svg = [`<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" aria-hidden="true" focusable="false">`];
  const tags = [];
  for (const unread of report.unread) {
    svg.push(`<polygon class="unread-outline" points="${polygonPoints(unread.corners)}"><title>${esc(`Not read: ${unread.why}`)}</title></polygon>`);
    tags.push(seatTag(unread.corners, "unread", "not read"));
  }
  for (const seat of seats) {
    const { corners } = table.cities[seat].reading;
    const chosen = swapFrom === seat ? " chosen" : "";
    svg.push(`<polygon class="seat-halo" points="${polygonPoints(corners)}"/>`,
      `<polygon class="seat-outline${chosen}" data-seat="${seat}" points="${polygonPoints(corners)}"><title>${esc(`Seat ${seat + 1} (${cityName(table, seat)}): tap, then another city, to swap them`)}</title></polygon>`);
    const tag = seatTag(corners, chosen, el("b", { textContent: seat + 1 }),
      el("span", { className: "names", textContent: ` · ${cityName(table, seat)}` }));
    tag.dataset.seat = seat;
    tags.push(tag);
  }
  svg.push("</svg>");
  const drawing = el("div", { className: "seat-drawing" });
  drawing.innerHTML = svg.join("");
  drawing.firstElementChild.addEventListener("click", (e) => {
    const outline = e.target.closest("polygon.seat-outline");
    if (outline) pickSeat(page, Number(outline.dataset.seat));
  });
  box.replaceChildren(img, drawing, ...tags);
  fitTags();

  const notes = report.notes.map((note) => el("li", { textContent: sentence(note) }));
  const next = todo(table, notes);
  if (next) notes.push(el("li", { className: "todo", textContent: next }));
  $("seat-notes").replaceChildren(...notes);
  // a city the photo cut matters only while a seat is empty: else a note, not a warning
  $("seat-notes").classList.toggle("settled", !emptySeats(table).length);
}

// The same, as a list of every seat: choose one, then another, and they swap.
function listSeats(page) {
  const { table, seatShot, swapFrom } = page;
  const list = $("seat-list");
  list.setAttribute("aria-busy", String(page.reordering));
  const shown = table.cities.filter((city) => city.photo && city.reading
    && city.reading.table_photo === seatShot).map((city) => city.reading);
  list.replaceChildren(...table.cities.map((city, seat) => {
    const reading = city.reading || {};
    const from = reading.table_photo && city.photo ? reading.table_photo : null;
    const what = from === seatShot ? `the city ${whereOnPhoto(reading, shown)}`
      : from ? "from another whole-table photo"
        : city.photo ? "read from a photo" : city.grid || city.counts ? "typed in" : "no city yet";
    const pick = el("button", { type: "button", className: `seat-pick${from === seatShot ? " in-photo" : ""}`,
      textContent: `Seat ${seat + 1} (${cityName(table, seat)}): ${what}` });
    pick.setAttribute("aria-pressed", String(swapFrom === seat));
    pick.dataset.seat = seat;
    pick.dataset.focus = `seat:${seat}`;
    pick.disabled = page.busy.size > 0;
    pick.addEventListener("click", () => pickSeat(page, seat));
    return el("li", {}, pick);
  }));
}

// Where a city from a whole-table photo lies in it, in words: "at the bottom left of the photo";
// of several cities ``shown`` (readings) in that part of the photo, which one from the left.
function whereOnPhoto(reading, shown) {
  const place = photoPart(reading);
  const alike = shown.filter((other) => photoPart(other) === place)
    .sort((a, b) => middleOf(a)[0] - middleOf(b)[0]);
  if (alike.length < 2) return place;
  return `${place}, the ${ORDINALS[alike.indexOf(reading)]} from the left`;
}

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"];

function middleOf({ corners }) {
  return [0, 1].map((k) => corners.reduce((sum, p) => sum + p[k], 0) / corners.length);
}

function photoPart(reading) {
  const [x, y] = middleOf(reading);
  const [w, h] = reading.photo_size;
  const third = (v, side) => Math.max(0, Math.min(2, Math.floor((3 * v) / side)));
  const across = ["left", "", "right"][third(x, w)];
  const down = ["top", "", "bottom"][third(y, h)];
  const place = [down, across].filter(Boolean).join(" ");
  return place ? `at the ${place} of the photo` : "in the middle of the photo";
}

// The first seat chosen is marked; the second swaps the two cities (photo, reading, corrections).
async function pickSeat(page, seat) {
  if (page.busy.size || page.reordering) return;
  const { swapFrom } = page;
  if (swapFrom === null || swapFrom === seat) {
    const cancel = swapFrom === seat;
    page.swapFrom = cancel ? null : seat;
    say(cancel ? "No seat chosen." : `Seat ${seat + 1} (${cityName(page.table, seat)}) chosen: now choose the seat its city belongs to, or choose it again to cancel.`);
    page.render();
    return;
  }
  const [a, b] = [Math.min(swapFrom, seat), Math.max(swapFrom, seat)];
  page.swapFrom = null;
  const order = page.table.cities.map((_, i) => i);
  order[a] = b;
  order[b] = a;
  const empty = emptySeats(page.table);
  const [from, to] = empty.includes(swapFrom) ? [seat, swapFrom] : [swapFrom, seat];
  const said = !empty.includes(a) && !empty.includes(b)
    ? () => `Seats ${a + 1} and ${b + 1} swapped: ${cityName(page.table, a) === cityName(page.table, b)
      ? `${cityName(page.table, a)}'s two cities changed places` // the two-player game
      : `${cityName(page.table, a)} and ${cityName(page.table, b)} have each other's city now`}.`
    : () => `City moved from seat ${from + 1} to seat ${to + 1} (${cityName(page.table, to)}); seat ${from + 1} is empty now.`;
  await reorder(page, order, `Swapping seats ${a + 1} and ${b + 1}…`, said);
}

// Every city of the open photo moves one seat on (step 1: the last to the first of them) or
// back (step -1): the photo's order around the table was right, its first seat was not (one
// tap instead of a swap per seat).
export async function turnSeating(page, step) {
  const seats = seatsOf(page.table, page.seatShot).sort((a, b) => a - b);
  if (page.busy.size || page.reordering || seats.length < 3) return;
  page.swapFrom = null;
  const n = seats.length;
  const order = page.table.cities.map((_, i) => i);
  seats.forEach((seat, i) => { order[seat] = seats[(i - step + n) % n]; });
  const first = seats[0];
  await reorder(page, order, "Turning the seating…",
    () => `Every city moved one seat ${step > 0 ? "on" : "back"}: seat ${first + 1} (${cityName(page.table, first)}) has the city that was at seat ${order[first] + 1}.`);
}

// Send a new seating (seat i gets the city at order[i]) and say how it went.
async function reorder(page, order, doing, done) {
  page.reordering = true;
  say(doing);
  page.render();
  try {
    await page.sending; // cells painted before go to the seat they were painted on
    page.answer(await call("PUT", `${page.api}/order`, { order, seen: page.table.updated }));
    moveSeats(page, order);
    page.showError("");
    say(done());
  } catch (error) {
    if (error.status === 409) { // another phone changed the table: show it as it is now, and
      try { page.answer(await call("GET", page.api)); } catch (ignored) { /* offline: as it was */ }
      say(sentence(error.message)); // say so here, where the player is looking
    } else {
      page.showError(sentence(error.message));
      say("");
    }
  } finally {
    page.reordering = false;
  }
  page.render();
}

// What the page keeps per seat follows the cities to their new seats (seat i had order[i]).
function moveSeats(page, order) {
  const to = new Map(order.map((from, i) => [from, i]));
  const errors = Object.entries(page.cardErrors);
  for (const [index] of errors) delete page.cardErrors[index];
  for (const [index, message] of errors) page.cardErrors[to.get(Number(index))] = message;
  const kept = [...page.confirmed];
  page.confirmed.clear();
  for (const key of kept) {
    const [index, r, c] = key.split(":");
    page.confirmed.add(`${to.get(Number(index))}:${r}:${c}`);
  }
  const retries = [...page.retry];
  page.retry.clear();
  for (const [index, photo] of retries) page.retry.set(to.get(index), photo);
  const open = [...page.countsOpen];
  page.countsOpen.clear();
  for (const index of open) page.countsOpen.add(to.get(index));
  page.nextCell = null;
  page.paint = null;
}
