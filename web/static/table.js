// The table page: photos in, grids shown over the warped photo, taps to correct, scoreboard.
const api = `/api/tables/${encodeURIComponent(document.getElementById("cities").dataset.table)}`;
// The game's words and limits, from the rules engine (one definition, in Python; see pages.py).
const GAME = JSON.parse(document.getElementById("cities").dataset.game);
const { short: SHORT, categories: CATEGORIES, buildings: BUILDINGS, supply: SUPPLY, tiles: TILES } = GAME;
const countsOpen = new Set(); // city indexes whose "Type counts" form is open
let table = null;
let highlight = null; // {city, cells, text}
let learning = null; // what the reader learned from the players (GET /api/learning)
const cardErrors = {}; // city index -> message shown in that city's card
const confirmed = new Set(); // "index:r:c" of flagged cells the player confirmed as read
const busy = new Map(); // city index -> "Reading…" / "Waiting…" while its photo is sent and read
let loading = null; // the first GET of the table: controls used before it arrived wait for it
let paint = null; // {city, building}: paint mode, each tapped cell becomes that building
let nextCell = null; // {city, r, c}: the empty cell chosen after one was set with the picker
const pending = new Map(); // "index:r:c" -> building painted, not yet answered by the server
let sending = Promise.resolve(); // painted cells go to the server one after another
let seatShot = null; // the whole-table photo (its cities' reading.table_photo) whose seating panel is open
let swapFrom = null; // the seat chosen first in the seating panel: the next seat chosen swaps with it
let reordering = false; // a new seating is being sent
let wholeTable = false; // a whole-table photo is being sent and read

const showError = (message) => { $("table-error").textContent = message || ""; };
const spoken = (b) => (b ? buildingName(b).toLowerCase() : "nothing"); // "drink tavern"
// A name with the letters the cell shows in it ("drink tavern, Td"), so voice control can say them.
const named = (b) => (SHORT[b].length > 1 ? `${spoken(b)}, ${SHORT[b]}` : spoken(b));
const esc = (text) => String(text).replace(/[<&>"]/g, (ch) => ({ "<": "&lt;", "&": "&amp;", ">": "&gt;", '"': "&quot;" })[ch]);


async function load() {
  table = await call("GET", api);
  render();
  refreshLearning();
}

// True once the table is here; a tap or photo chosen before that waits for it instead of failing.
async function loaded() {
  if (!table) {
    try { await loading; } catch (error) { return false; }
  }
  return Boolean(table);
}

async function refreshLearning() {
  // Whether the reader learned anything decides if "Read again" is offered; not essential.
  const before = Boolean(learning && learning.active);
  try { learning = await call("GET", "/api/learning"); } catch (error) { return; }
  if (table && Boolean(learning.active) !== before) render();
}

function setCardError(index, message) {
  if (message) cardErrors[index] = message;
  else delete cardErrors[index];
}

function forgetConfirmed(index) {
  for (const key of [...confirmed]) if (key.startsWith(`${index}:`)) confirmed.delete(key);
}

// A cell the player corrected or confirmed (kept by the server with the reading).
function chosen(city, r, c) {
  const cells = (city.reading && city.reading.chosen) || [];
  return cells.some(([y, x]) => y === r && x === c);
}

// Cells where the player chose another building than the model read.
function correctedCells(city) {
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

function builders(index) {
  const p = table.players;
  if (p.length === 1) return [[p[0], "Automartin"], ["Automartin", "Automanon"], ["Automanon", p[0]]][index];
  if (p.length === 2) return [p[Math.floor(index / 2)]];
  return [p[index], p[(index + 1) % p.length]];
}

function cityTitle(index) {
  const solo = table.players.length === 1 && index === 1;
  return `City ${index + 1}${solo ? " · Automaville" : ""} · ${builders(index).join(" & ")}`;
}

// The city as the players call it: by who built it ("Ann & Ben"), Automaville in solo.
function cityName(index) {
  return table.players.length === 1 && index === 1 ? "Automaville" : builders(index).join(" & ");
}

// --- the table seen from above: seats around a circle, each city between its builders ----

function seatingDiagram() {
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
  table.cities.forEach((city, i) => {
    const [x, y] = at(cityAngle(i), 45);
    const scored = table.scores.cities[i];
    const label = `City ${i + 1}${scored ? `: ${scored.scores.total + (scored.modifier || 0)} points` : ", not scored yet"}`;
    svg.push(`<a href="#city-${i + 1}" aria-label="${esc(label)}"><rect x="${x - 17}" y="${y - 17}" width="34" height="34" rx="4" class="${scored ? "read" : "empty"}"/>`,
      `<text x="${x}" y="${y}" text-anchor="middle" dominant-baseline="middle" class="city-label">${scored ? scored.scores.total + (scored.modifier || 0) : i + 1}</text></a>`);
  });
  svg.push("</svg>");
  const box = el("div", { className: "seating-wrap" });
  box.innerHTML = svg.join("");
  return box;
}

// Widen the diagram's view to what it draws, so that no name is clipped at its edges.
function fitSeating() {
  const svg = document.querySelector("#seating-diagram svg");
  const box = svg && svg.getBBox();
  if (!box || !box.width) return; // not laid out (hidden): keep the default view
  svg.setAttribute("viewBox", `${box.x - 4} ${box.y - 4} ${box.width + 8} ${box.height + 8}`);
}

// --- shrinking and uploading photos -------------------------------------------------------

// One city: 2000 px on the long side is plenty; a whole table keeps 4000 px (its cities are small).
async function shrink(file, side = 2000) {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size < 4e6) return file;
    const canvas = el("canvas", { width: Math.round(bitmap.width * scale), height: Math.round(bitmap.height * scale) });
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise((done) => canvas.toBlob((b) => done(b || file), "image/jpeg", 0.9));
  } catch (error) {
    return file; // a format this browser cannot decode (e.g. HEIC): the server reads it
  }
}

// POST a photo to url, showing "label: uploading 40 %", then "label: reading" while it is read.
function upload(url, blob, label, reading = "reading the city…") {
  return new Promise((resolve) => {
    const bar = $("progress");
    bar.hidden = false;
    bar.firstElementChild.style.width = "0";
    bar.lastElementChild.textContent = `${label}: uploading`;
    const form = new FormData();
    form.append("photo", blob, "photo.jpg");
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      bar.firstElementChild.style.width = `${(100 * e.loaded) / e.total}%`;
      bar.lastElementChild.textContent = `${label}: uploading ${Math.round((100 * e.loaded) / e.total)} %`;
    };
    xhr.upload.onload = () => { bar.lastElementChild.textContent = `${label}: ${reading}`; };
    xhr.onload = () => {
      let data = {};
      try { data = JSON.parse(xhr.responseText); } catch (e) { data = { error: "unexpected reply" }; }
      resolve({ ok: xhr.status < 300, data });
    };
    xhr.onerror = () => resolve({ ok: false, data: { error: "network error: photo not sent" } });
    xhr.send(form);
  });
}

// The files of a file input, which is emptied so that choosing the same photo again still counts.
function takeFiles(input) {
  const files = [...input.files];
  input.value = "";
  return files;
}

async function sendPhotos(files, firstIndex) {
  if (!files.length || !(await loaded())) return;
  if (busy.size || reordering) { showError("Photos are still being read: wait for them first."); return; }
  showError("");
  const errors = [];
  const count = Math.min(files.length, table.cities.length - firstIndex);
  for (let k = 0; k < count; k++) busy.set(firstIndex + k, "Waiting…");
  try {
    for (let k = 0; k < count; k++) {
      const index = firstIndex + k;
      busy.set(index, "Reading…");
      render();
      const result = await upload(`${api}/cities/${index + 1}/photo`, await shrink(files[k]), `City ${index + 1} (${cityName(index)})`);
      busy.delete(index);
      if (!result.ok) errors.push(`City ${index + 1}: ${result.data.error}`);
      else { forgetConfirmed(index); setCardError(index, ""); }
      await load();
    }
  } catch (error) {
    errors.push(error.message);
  } finally {
    busy.clear();
    $("progress").hidden = true;
    render();
  }
  showError(errors.join(" · "));
}

// --- one photo of the whole table: every city found, read and seated; players check the seating ---

const capital = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;
const sentence = (text) => capital(/[.!?…]$/.test(text) ? text : `${text}.`);

async function sendTablePhoto(file) {
  if (!file || !(await loaded())) return;
  if (busy.size || reordering) { showError("Photos are still being read: wait for them first."); return; }
  showError("");
  // The server may seat a city anywhere: every city waits while the photo is read.
  table.cities.forEach((_, i) => busy.set(i, "Reading…"));
  wholeTable = true;
  render();
  let result;
  try {
    result = await upload(`${api}/photo`, await shrink(file, 4000), "Whole table", "finding and reading every city…");
  } finally {
    busy.clear();
    wholeTable = false;
    $("progress").hidden = true;
  }
  if (!result.ok) {
    // Nothing changed on the server: say why, in its words, and what the table still is.
    showError(`${sentence(result.data.error || "the photo was not read")} Nothing was changed.`);
    render();
    return;
  }
  const { photo: placed, ...answer } = result.data;
  table = answer;
  for (const seat of placed.seats) { forgetConfirmed(seat); setCardError(seat, ""); }
  if (highlight && placed.seats.includes(highlight.city)) highlight = null;
  paint = null;
  nextCell = null;
  const shot = (table.cities[placed.seats[0]].reading || {}).table_photo;
  if (shot) {
    seatShot = shot;
    swapFrom = null;
  }
  render();
  refreshLearning();
  if (!shot) return;
  const left = table.cities.length - placed.seats.length;
  say(`${plural(placed.seats.length, "city", "cities")} read and seated${left ? `; ${plural(left, "seat", "seats")} not from this photo` : ""}. Check the seating.`);
  $("seat-panel-title").focus();
}

// The whole-table photos the table's cities came from, in the order of the first seat of each.
function tableShots() {
  const shots = [];
  for (const city of table.cities) {
    const shot = city.photo && city.reading && city.reading.table_photo;
    if (shot && !shots.includes(shot)) shots.push(shot);
  }
  return shots;
}

// The seats whose city came from a whole-table photo, in the photo's order.
const seatsOf = (shot) => table.cities.map((city, i) => [city, i])
  .filter(([city]) => city.photo && city.reading && city.reading.table_photo === shot)
  .sort(([a], [b]) => a.reading.in_photo - b.reading.in_photo).map(([, i]) => i);

// The panel's status line (a live region kept in the page): written only when it changes.
function say(text) {
  const status = $("seat-status");
  if (status.textContent !== text) status.textContent = text;
}

const polygonPoints = (corners) => corners.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

// Where a city's tag goes: centred on the middle of its corners; near an edge of the photo
// (a city cut by it) the tag leans inwards, so it stays whole.
function tagAt(corners, w, h) {
  const mid = (k, size) => Math.min(100, Math.max(0, (100 * corners.reduce((sum, p) => sum + p[k], 0)) / 4 / size));
  const lean = (at) => (at < 15 || at > 85 ? at : 50);
  const [x, y] = [mid(0, w), mid(1, h)];
  return `left:${x.toFixed(1)}%;top:${y.toFixed(1)}%;transform:translate(-${lean(x).toFixed(1)}%,-${lean(y).toFixed(1)}%)`;
}

function openSeating(shot) {
  seatShot = shot;
  swapFrom = null;
  say("");
  render();
  $("seat-panel-title").focus();
}

function closeSeating() {
  const shot = seatShot;
  seatShot = null;
  swapFrom = null;
  say("");
  render();
  refocus(`check-seating:${shot}`);
}

// "Check seating" for each whole-table photo whose panel is closed; the panel of the open one.
function renderSeating() {
  const shots = tableShots();
  if (seatShot && !shots.includes(seatShot)) { seatShot = null; swapFrom = null; }
  $("seat-checks").replaceChildren(...shots.filter((shot) => shot !== seatShot).map((shot) => {
    const seats = seatsOf(shot).map((i) => i + 1);
    const check = el("button", { type: "button", className: "small check-seating",
      textContent: shots.length > 1 ? `Check seating of cities ${seats.join(", ")}` : "Check seating" });
    check.title = "The whole-table photo with its cities outlined: swap cities in the wrong seats";
    check.dataset.focus = `check-seating:${shot}`;
    check.disabled = busy.size > 0;
    check.addEventListener("click", () => openSeating(shot));
    return check;
  }));
  const panel = $("seat-panel");
  panel.hidden = !seatShot;
  if (!seatShot) return;
  const seats = seatsOf(seatShot);
  const { photo_size: [w, h] } = table.cities[seats[0]].reading;
  const kept = table.cities[seats[0]].reading; // each city keeps its photo's notes
  const report = { notes: kept.photo_notes || [], unread: kept.photo_unread || [] };

  // The photo, every city read from it outlined and tagged with its seat, those not read dashed.
  const box = $("seat-photo");
  let img = box.querySelector("img");
  if (!img || img.dataset.shot !== seatShot) { // the same photo stays (no reload when seats change)
    img = el("img", { src: `${api}/cities/${seats[0] + 1}/photo.jpg?v=${seatShot}` });
    img.dataset.shot = seatShot;
  }
  img.alt = `The whole-table photo: ${plural(seats.length, "city", "cities")} outlined, each with its seat number`;
  box.style.aspectRatio = `${w} / ${h}`;
  const svg = [`<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" aria-hidden="true" focusable="false">`];
  const tags = [];
  for (const unread of report.unread) {
    svg.push(`<polygon class="unread-outline" points="${polygonPoints(unread.corners)}"><title>${esc(`Not read: ${unread.why}`)}</title></polygon>`);
    tags.push(el("span", { className: "seat-tag unread", style: tagAt(unread.corners, w, h), textContent: "not read" }));
  }
  for (const seat of seats) {
    const { corners } = table.cities[seat].reading;
    const chosen = swapFrom === seat ? " chosen" : "";
    svg.push(`<polygon class="seat-halo" points="${polygonPoints(corners)}"/>`,
      `<polygon class="seat-outline${chosen}" data-seat="${seat}" points="${polygonPoints(corners)}"><title>${esc(`Seat ${seat + 1} (${cityName(seat)}): tap, then another city, to swap them`)}</title></polygon>`);
    const tag = el("span", { className: `seat-tag${chosen}`, style: tagAt(corners, w, h) },
      el("b", { textContent: seat + 1 }), el("span", { className: "names", textContent: ` · ${cityName(seat)}` }));
    tag.dataset.seat = seat;
    tags.push(tag);
  }
  svg.push("</svg>");
  const drawing = el("div", { className: "seat-drawing" });
  drawing.innerHTML = svg.join("");
  drawing.firstElementChild.addEventListener("click", (e) => {
    const outline = e.target.closest("polygon.seat-outline");
    if (outline) pickSeat(Number(outline.dataset.seat));
  });
  for (const tag of tags) tag.setAttribute("aria-hidden", "true"); // the list below says the same
  box.replaceChildren(img, drawing, ...tags);
  fitTags();

  // What the photo showed besides: cities cut by its edge or hidden (known right after the upload).
  const notes = report.notes.map((note) => el("li", { textContent: sentence(note) }));
  if (notes.length) {
    notes.push(el("li", { className: "todo", textContent: "If it is one of this table's cities, photograph it from its own card below, or take the whole photo again with every city whole in the frame." }));
  }
  $("seat-notes").replaceChildren(...notes);

  // The same, as a list of every seat: choose one, then another, and they swap.
  const list = $("seat-list");
  list.setAttribute("aria-busy", String(reordering));
  list.replaceChildren(...table.cities.map((city, seat) => {
    const reading = city.reading || {};
    const from = reading.table_photo && city.photo ? reading.table_photo : null;
    const what = from === seatShot ? `city ${reading.in_photo} of the photo`
      : from ? `city ${reading.in_photo} of another photo`
        : city.photo ? "read from a photo" : city.grid || city.counts ? "typed in" : "no city yet";
    const pick = el("button", { type: "button", className: `seat-pick${from === seatShot ? " in-photo" : ""}`,
      textContent: `Seat ${seat + 1} (${cityName(seat)}): ${what}` });
    pick.setAttribute("aria-pressed", String(swapFrom === seat));
    pick.dataset.seat = seat;
    pick.dataset.focus = `seat:${seat}`;
    pick.disabled = busy.size > 0;
    pick.addEventListener("click", () => pickSeat(seat));
    return el("li", {}, pick);
  }));
  $("seating-right").disabled = busy.size > 0;
}

// Tags that would cover each other (many cities, a small screen) show the seat number only:
// the list below names the builders.
function fitTags() {
  const box = $("seat-photo");
  box.classList.remove("compact");
  const boxes = [...box.querySelectorAll(".seat-tag")].map((tag) => tag.getBoundingClientRect());
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  if (boxes.some((a, i) => a.width && boxes.some((b, j) => j > i && overlap(a, b)))) box.classList.add("compact");
}

// The first seat chosen is marked; the second swaps the two cities (photo, reading, corrections).
async function pickSeat(seat) {
  if (busy.size || reordering) return;
  if (swapFrom === null || swapFrom === seat) {
    const cancel = swapFrom === seat;
    swapFrom = cancel ? null : seat;
    say(cancel ? "No seat chosen." : `Seat ${seat + 1} (${cityName(seat)}) chosen: now choose the seat its city belongs to, or choose it again to cancel.`);
    render();
    return;
  }
  const [a, b] = [Math.min(swapFrom, seat), Math.max(swapFrom, seat)];
  swapFrom = null;
  const order = table.cities.map((_, i) => i);
  order[a] = b;
  order[b] = a;
  reordering = true;
  say(`Swapping seats ${a + 1} and ${b + 1}…`);
  render();
  try {
    await sending; // cells painted before go to the seat they were painted on
    table = await call("PUT", `${api}/order`, { order });
    moveSeats(order);
    showError("");
    say(`Seats ${a + 1} and ${b + 1} swapped: ${cityName(a)} and ${cityName(b)} have each other's city now.`);
  } catch (error) {
    showError(sentence(error.message));
    say("");
  } finally {
    reordering = false;
  }
  render();
}

// What the page keeps per seat follows the cities to their new seats (seat i had order[i]).
function moveSeats(order) {
  const to = new Map(order.map((from, i) => [from, i]));
  const errors = Object.entries(cardErrors);
  for (const [index] of errors) delete cardErrors[index];
  for (const [index, message] of errors) cardErrors[to.get(Number(index))] = message;
  const kept = [...confirmed];
  confirmed.clear();
  for (const key of kept) {
    const [index, r, c] = key.split(":");
    confirmed.add(`${to.get(Number(index))}:${r}:${c}`);
  }
  const open = [...countsOpen];
  countsOpen.clear();
  for (const index of open) countsOpen.add(to.get(index));
  highlight = null;
  nextCell = null;
  paint = null;
}

// --- cities ------------------------------------------------------------------------------

function gridView(city, index) {
  const reading = city.reading && city.reading.warp ? city.reading : null;
  const wrap = el("div", { className: reading ? "grid-wrap photo" : "grid-wrap" });
  if (reading) {
    wrap.append(el("img", { src: `${api}/cities/${index + 1}/warped.jpg?v=${table.updated}`, alt: `City ${index + 1} photo` }));
  }
  const grid = el("div", { className: "grid" });
  if (reading) {
    const inset = (100 * reading.warp.pad) / reading.warp.side;
    grid.style.inset = `${inset}%`;
  }
  const marks = highlight && highlight.city === index ? highlight.marks : {};
  const painting = paint && paint.city === index;
  const corrected = correctedCells(city);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const building = cellAt(city, index, r, c);
      const mark = marks[`${r}:${c}`];
      const next = !painting && nextCell && nextCell.city === index && nextCell.r === r && nextCell.c === c && !building;
      const conf = reading && reading.confidence ? reading.confidence[r][c] : 1;
      const flagged = Boolean(reading && reading.uncertain && reading.uncertain.some(([y, x]) => y === r && x === c));
      const fixed = corrected.some(([y, x]) => y === r && x === c);
      const checked = confirmed.has(`${index}:${r}:${c}`) || chosen(city, r, c);
      const low = flagged && !fixed && !checked;
      const cell = el("button", {
        type: "button",
        className: `cell${low ? " low" : ""}${fixed ? " corrected" : ""}${mark ? ` hl g${mark.group % GROUP_COLOURS}` : ""}${next ? " next" : ""}`,
        title: building ? `${building}${fixed ? `, corrected (read as ${reading.model_grid[r][c]})` : conf < 1 ? ` (${Math.round(conf * 100)} %)` : ""}` : "choose",
      });
      cell.dataset.row = r + 1;
      cell.dataset.col = c + 1;
      cell.dataset.focus = `cell:${index}:${r}:${c}`;
      if (fixed) cell.dataset.corrected = "true";
      // Screen readers hear what the eye sees: the building, and whether it is flagged or corrected.
      const state = fixed ? `, corrected (read as ${spoken(reading.model_grid[r][c])})` : low ? ", to check" : "";
      const why = mark ? `, ${mark.words}` : "";
      const todo = next ? ", next to type" : painting && building !== paint.building ? `, tap to make it a ${spoken(paint.building)}` : "";
      cell.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}: ${building ? named(building) : "empty"}${state}${why}${todo}`);
      if (!painting) cell.setAttribute("aria-haspopup", "dialog");
      if (building) {
        cell.append(el("img", { src: `/static/icons/${building}.png`, alt: "" }));
        cell.append(el("span", { textContent: SHORT[building] }));
      } else cell.append(el("span", { textContent: "?" }));
      if (low) {
        const flag = el("i", { className: "flag", textContent: "?" }); // flagged: not by colour only
        flag.setAttribute("aria-hidden", "true");
        cell.append(flag);
      }
      if (mark) {
        const badge = el("b", { className: "badge", textContent: mark.badge }); // the group, not by colour only
        badge.setAttribute("aria-hidden", "true");
        cell.append(badge);
      }
      cell.addEventListener("click", () => (paint && paint.city === index
        ? paintCell(index, r, c, paint.building) : pickCell(index, r, c, building)));
      grid.append(cell);
    }
  }
  wrap.append(grid);
  return wrap;
}

function cornerPicker(index, message) {
  // The player taps the four corners of the city on the photo (no city found, or to adjust).
  const points = [];
  const img = el("img", { src: `${api}/cities/${index + 1}/photo.jpg?v=${table.updated}`, alt: "photo" });
  const note = el("p", { className: "hint warn", textContent: message });
  const wrap = el("div", { className: "corner-wrap" }, img);
  img.addEventListener("click", async (e) => {
    const box = img.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * img.naturalWidth;
    const y = ((e.clientY - box.top) / box.height) * img.naturalHeight;
    points.push([x, y]);
    wrap.append(el("i", { className: "dot", style: `left:${(100 * (e.clientX - box.left)) / box.width}%;top:${(100 * (e.clientY - box.top)) / box.height}%` }));
    if (points.length === 4) {
      try {
        table = await call("POST", `${api}/cities/${index + 1}/corners`, { corners: points });
        forgetConfirmed(index);
        setCardError(index, "");
        render();
        refreshLearning();
      } catch (error) {
        setCardError(index, error.message);
        load();
      }
    }
  });
  return el("div", {}, note, wrap);
}

// Solo beginner mode: Automaville's tiles are sorted by type, so the player types counts.
const isAutomaville = (index) => table.players.length === 1 && index === 1;

function countsForm(city, index) {
  const form = el("form", { className: "counts", noValidate: true }); // the server's one-line error says what is wrong
  form.setAttribute("aria-label", "Automaville's tiles by type");
  const fields = el("div", { className: "count-fields" });
  for (const b of BUILDINGS) {
    const input = el("input", { type: "number", name: b, min: 0, max: Math.min(SUPPLY[b], TILES), step: 1, value: (city.counts && city.counts[b]) || 0, inputMode: "numeric" });
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
    try {
      table = await call("PUT", `${api}/cities/${index + 1}/counts`, { counts });
      countsOpen.delete(index);
      setCardError(index, "");
    } catch (error) { setCardError(index, error.message); }
    render();
  });
  return form;
}

function countsSummary(city) {
  const parts = BUILDINGS.filter((b) => city.counts[b]).map((b) => `${buildingName(b)} ${city.counts[b]}`);
  return el("p", { className: "counts-summary", textContent: `Tiles sorted by type: ${parts.join(", ") || "none"}` });
}

function cityCard(city, index) {
  const card = el("section", { className: "card city", id: `city-${index + 1}` });
  card.dataset.city = index + 1;
  card.append(el("h2", { textContent: cityTitle(index) }));
  const scores = table.scores.cities[index];
  if (scores) card.append(el("p", { className: "total", textContent: `${scores.scores.total} points` }));
  for (const warning of (scores && scores.warnings) || []) card.append(el("p", { className: "hint warn supply", textContent: `Check this city: ${warning}.` }));
  const photo = el("input", { type: "file", accept: "image/*", hidden: true });
  photo.setAttribute("capture", "environment");
  photo.addEventListener("change", () => sendPhotos(takeFiles(photo), index));
  const pick = el("input", { type: "file", accept: "image/*", hidden: true });
  pick.addEventListener("change", () => sendPhotos(takeFiles(pick), index));
  const actions = el("div", { className: "row" },
    fileButton("Take photo", "small primary take-photo", photo, index), photo,
    fileButton("Choose photo", "small choose-photo", pick, index), pick);
  if (!city.photo || city.grid) {
    const type = el("button", { type: "button", className: "small type-grid", textContent: city.grid ? "Type over" : "Type in" });
    type.dataset.focus = `type:${index}`;
    type.addEventListener("click", () => typeOver(city, index));
    actions.append(type);
  }
  const unread = city.photo && (!city.grid || (city.reading && city.reading.unread));
  if (isAutomaville(index)) {
    const open = countsOpen.has(index);
    const counts = el("button", { className: "small type-counts", textContent: city.counts ? "Change counts" : "Type counts" });
    counts.setAttribute("aria-expanded", String(open));
    counts.addEventListener("click", () => {
      if (countsOpen.has(index)) countsOpen.delete(index); else countsOpen.add(index);
      render();
    });
    actions.append(counts);
  }
  if (city.photo && !unread) {
    const adjust = el("button", { className: "small", textContent: "Adjust corners" });
    adjust.addEventListener("click", () => {
      adjust.disabled = true;
      actions.after(cornerPicker(index, "Tap the city's four outer corners on the photo; it is read again."));
    });
    actions.append(adjust);
  }
  card.append(actions);
  if (unread) card.append(cornerPicker(index, "No city found in the last photo. Tap the city's four corners on it, or take another photo."));
  if (city.counts) card.append(countsSummary(city));
  if (isAutomaville(index) && countsOpen.has(index)) card.append(countsForm(city, index));
  if (city.grid && !city.counts && !busy.has(index) && (paint && paint.city === index || typedCount(city, index) < 16)) {
    card.append(typingPanel(city, index));
  }
  if (city.grid) card.append(gridView(city, index));
  const corrected = correctedCells(city);
  const uncertain = city.reading && city.reading.uncertain ? city.reading.uncertain : [];
  const low = uncertain.filter(([r, c]) => !confirmed.has(`${index}:${r}:${c}`)
    && !chosen(city, r, c) && !corrected.some(([y, x]) => y === r && x === c)).length;
  if (low) card.append(el("p", { className: "hint warn", textContent: `${low} cell(s) to check (marked ?): tap to correct, or adjust the corners if the grid is off.` }));
  if (corrected.length) card.append(el("p", { className: "hint", textContent: `${corrected.length} cell(s) corrected (marked ✎).` }));
  if (city.photo && !unread && city.grid && city.reading && city.reading.warp) card.append(teaching(city, index));
  if (highlight && highlight.city === index) card.append(whyBox(highlight));
  const error = el("p", { className: "error card-error", textContent: cardErrors[index] || "" });
  error.setAttribute("role", "alert");
  card.append(error);
  if (busy.has(index)) showBusy(card, busy.get(index));
  return card;
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

// "Type in" starts an empty grid; "Type over" wipes a read city, so it asks first.
async function typeOver(city, index) {
  if (city.grid && !confirm(`Type over City ${index + 1} (${cityName(index)})? Its ${city.photo ? "reading and corrections" : "cells"} will be wiped.`)) return;
  const empty = [0, 1, 2, 3].map(() => [null, null, null, null]);
  try {
    table = await call("PUT", `${api}/cities/${index + 1}/grid`, { grid: empty });
    forgetConfirmed(index);
    setCardError(index, "");
    nextCell = { city: index, r: 0, c: 0 };
    if (highlight && highlight.city === index) highlight = null;
  } catch (error) { setCardError(index, error.message); }
  render();
}

// "Reading is right" teaches the reader this city's tiles; "Read again" uses what it learned.
function teaching(city, index) {
  const row = el("div", { className: "row teach" });
  if (city.reading.accepted) {
    row.append(el("p", { className: "hint learned-note", textContent: "Learned from this city" }));
  } else {
    const accept = el("button", { className: "small primary accept", textContent: "Reading is right" });
    accept.title = "Every cell is right now: the reader learns your tiles from this city";
    accept.addEventListener("click", () => cityAction(accept, index, "accept", "Learning…"));
    row.append(accept);
  }
  if (learning && learning.active) {
    const again = el("button", { className: "small reread", textContent: "Read again" });
    again.title = "Read this photo again with the tiles learned so far; your corrections stay";
    again.addEventListener("click", () => cityAction(again, index, "reread", "Reading again…"));
    row.append(again);
  }
  if (city.reading.adapted) row.append(el("span", { className: "hint", textContent: "read with your tiles" }));
  return row;
}

async function cityAction(button, index, action, busy) {
  button.disabled = true;
  button.textContent = busy;
  try {
    table = await call("POST", `${api}/cities/${index + 1}/${action}`);
    setCardError(index, "");
    render();
    refreshLearning();
  } catch (error) {
    setCardError(index, error.message);
    render();
  }
}

function pickCell(index, r, c, current) {
  const dialog = $("picker");
  $("picker-title").textContent = `City ${index + 1} (${cityName(index)}), row ${r + 1}, column ${c + 1}: which building?`;
  dialog.querySelectorAll(".pick").forEach((b) => b.classList.toggle("current", b.value === current));
  dialog.onclose = async () => {
    const building = dialog.returnValue;
    if (!building) return;
    try {
      table = await call("PUT", `${api}/cities/${index + 1}/cells/${r + 1}/${c + 1}`, { building });
      // Choosing the building a cell shows confirms it: a flagged cell is then checked.
      if (building === current) confirmed.add(`${index}:${r}:${c}`);
      else confirmed.delete(`${index}:${r}:${c}`);
      setCardError(index, "");
      // Typing a city in: the next empty cell is chosen, Enter (or a tap) opens its picker.
      nextCell = nextEmpty(table.cities[index], index, r, c);
      if (highlight && highlight.city === index) highlight = null; // drawn for the cells before
      render();
      focusNext();
      refreshLearning();
    } catch (error) { setCardError(index, error.message); render(); }
  };
  dialog.returnValue = "";
  dialog.showModal();
}


// --- typing a city in: paint mode and the count of tiles typed --------------------------------

// A cell as shown: what was just painted there, else what the server keeps.
function cellAt(city, index, r, c) {
  const key = `${index}:${r}:${c}`;
  if (pending.has(key)) return pending.get(key);
  return city.grid && city.grid[r] ? city.grid[r][c] : null;
}

const shownGrid = (city, index) => [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => cellAt(city, index, r, c)));
const typedCount = (city, index) => shownGrid(city, index).flat().filter(Boolean).length;

// The first empty cell after (r, c), reading row by row and starting over at the top.
function nextEmpty(city, index, r, c) {
  for (let k = 1; k <= 16; k++) {
    const i = (r * 4 + c + k) % 16;
    const [y, x] = [Math.floor(i / 4), i % 4];
    if (!cellAt(city, index, y, x)) return { city: index, r: y, c: x };
  }
  return null;
}

function focusNext() {
  if (!nextCell) return;
  const key = `cell:${nextCell.city}:${nextCell.r}:${nextCell.c}`;
  const node = [...document.querySelectorAll("[data-focus]")].find((n) => n.dataset.focus === key);
  if (node) node.focus({ preventScroll: true });
}

// Paint mode: one building chosen, then every tapped cell becomes it (no picker per cell).
function paintCell(index, r, c, building) {
  const key = `${index}:${r}:${c}`;
  const city = table.cities[index];
  if (cellAt(city, index, r, c) === building) return;
  pending.set(key, building);
  confirmed.delete(key);
  nextCell = null;
  if (highlight && highlight.city === index) highlight = null; // drawn for the cells before
  render();
  sending = sending.then(async () => {
    try {
      table = await call("PUT", `${api}/cities/${index + 1}/cells/${r + 1}/${c + 1}`, { building });
      setCardError(index, "");
    } catch (error) { setCardError(index, error.message); }
    pending.delete(key);
    render();
  });
}

function typingPanel(city, index) {
  const panel = el("div", { className: "typing" });
  const grid = shownGrid(city, index);
  const typed = grid.flat().filter(Boolean).length;
  // the score itself comes from the server once all 16 are in (the rules live in Python)
  const count = el("p", { className: "typed", textContent: `${typed} of 16 tiles typed` });
  count.setAttribute("aria-live", "polite");
  panel.append(count);
  const painting = paint && paint.city === index;
  const tools = el("div", { className: "paint-tools" });
  tools.setAttribute("role", "group");
  tools.setAttribute("aria-label", `Paint City ${index + 1}: choose a building, then tap cells`);
  tools.append(el("span", { className: "hint", textContent: painting ? `Painting ${spoken(paint.building)}: tap cells` : "Paint:" }));
  for (const b of BUILDINGS) {
    const on = painting && paint.building === b;
    const button = el("button", { type: "button", className: `paint-pick${on ? " on" : ""}`, title: buildingName(b) },
      el("img", { src: `/static/icons/${b}.png`, alt: "" }), el("span", { textContent: SHORT[b] }));
    button.dataset.building = b;
    button.dataset.focus = `paint:${index}:${b}`;
    button.setAttribute("aria-label", `Paint ${named(b)}`);
    button.setAttribute("aria-pressed", String(on));
    button.addEventListener("click", () => {
      paint = on ? null : { city: index, building: b };
      nextCell = null;
      render();
    });
    tools.append(button);
  }
  if (painting) {
    const stop = el("button", { type: "button", className: "small paint-stop", textContent: "Done painting" });
    stop.dataset.focus = `paint-stop:${index}`;
    stop.addEventListener("click", () => { paint = null; render(); });
    tools.append(stop);
  }
  panel.append(tools);
  return panel;
}

// --- every point drawn on the city, in a player's words ------------------------------------

const GROUP_COLOURS = 6;
const LETTERS = "ABCDEFGHIJKLMNOP";
const ORDINAL = ["no factories", "the most factories", "the second most factories", "fewer factories"];

// [[0, 3]] -> "row 1, column 4"; a line in a row -> "row 2, columns 1 to 3".
function place(cells) {
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

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const cellsOf = (grid, pred) => grid.flatMap((row, r) => row.map((b, c) => [r, c, b])).filter(([, , b]) => pred(b)).map(([r, c]) => [r, c]);

// {city, title, lines: [{group, badge, text}], marks: {"r:c": {group, badge, words}}}
function explainInWords(category, index) {
  const scored = table.scores.cities[index];
  const why = scored.explanation[category];
  const points = scored.scores[category];
  const grid = table.cities[index].grid;
  const lines = [];
  const marks = {};
  const add = (cells, text, badge, words) => {
    const group = lines.length;
    lines.push({ group, badge, text });
    for (const [r, c] of cells) marks[`${r}:${c}`] = { group, badge, words };
  };
  const title = `${category[0].toUpperCase()}${category.slice(1)}: ${plural(points, "point", "points")}`;
  if (category === "shops") {
    why.sets.forEach((s, k) => {
      const what = s.cells.length === 1 ? "a shop on its own" : `${s.cells.length} shops in a line`;
      add(s.cells, `${what}, ${place(s.cells)}: ${s.points} points`, LETTERS[k], `${what} (${LETTERS[k]}), ${s.points} points`);
    });
  } else if (category === "parks") {
    why.groups.forEach((g, k) => {
      const what = g.cells.length === 1 ? "a park on its own" : `a group of ${g.cells.length} parks`;
      add(g.cells, `${what}, ${place(g.cells)}: ${g.points} points`, LETTERS[k], `${what} (${LETTERS[k]}), ${g.points} points`);
    });
  } else if (category === "taverns") {
    // The explanation names the kinds in each set; the cells are the city's taverns of those kinds.
    const left = {};
    for (const [r, c] of cellsOf(grid, (b) => b && b.startsWith("tavern-"))) (left[grid[r][c]] = left[grid[r][c]] || []).push([r, c]);
    why.sets.forEach((s, k) => {
      const cells = s.kinds.map((kind) => (left[kind] || []).shift()).filter(Boolean);
      const names = s.kinds.map((kind) => kind.slice(7));
      const kinds = names.length === 1 ? `a ${names[0]} tavern` : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} taverns`;
      const what = s.kinds.length === 1 ? `${kinds} on its own` : `a set of ${s.kinds.length}: ${kinds}`;
      add(cells, `${what}, ${place(cells)}: ${s.points} points`, LETTERS[k], `tavern set ${LETTERS[k]}, ${s.points} points`);
    });
    if (why.sets.length > 1) lines.push({ text: "A set holds each kind once; a second tavern of a kind starts a new set." });
  } else if (category === "offices") {
    const offices = cellsOf(grid, (b) => b === "office");
    let from = 0;
    why.sets.forEach((s, k) => {
      const cells = offices.slice(from, from + s.size);
      from += s.size;
      add(cells, `a set of ${plural(s.size, "office", "offices")}, ${place(cells)}: ${s.points} points`, LETTERS[k],
        `office set ${LETTERS[k]}, ${s.points} points`);
    });
    if (why.sets.length > 1) lines.push({ text: "Offices count in sets of up to 6, wherever they are." });
    if (why.next_to_tavern.length) {
      const bonus = { group: lines.length, badge: "+1", text: `+1 for each office next to a tavern (${plural(why.next_to_tavern.length, "office", "offices")}), ${place(why.next_to_tavern)}: ${why.next_to_tavern.length} points` };
      lines.push(bonus);
      for (const [r, c] of why.next_to_tavern) {
        const mark = marks[`${r}:${c}`];
        marks[`${r}:${c}`] = { group: bonus.group, badge: `${mark ? mark.badge : ""}+1`, words: `${mark ? `${mark.words}, ` : ""}+1 next to a tavern` };
      }
    }
  } else if (category === "houses") {
    const capped = why.next_to_factory;
    const full = why.cells.filter(([r, c]) => !capped.some(([y, x]) => y === r && x === c));
    const types = why.other_types.join(", ") || "none";
    if (full.length) {
      add(full, `${plural(full.length, "house", "houses")} worth ${why.per_house} each (${plural(why.per_house, "other building type", "other building types")} in the city: ${types}), ${place(full)}: ${full.length * why.per_house} points`,
        String(why.per_house), `house worth ${why.per_house}`);
    }
    if (capped.length) {
      add(capped, `${plural(capped.length, "house", "houses")} next to a factory, worth only 1 each, ${place(capped)}: ${capped.length} points`, "1", "house next to a factory, worth 1");
    }
  } else if (category === "factories") {
    const cells = cellsOf(grid, (b) => b === "factory");
    if (cells.length) {
      add(cells, `${plural(cells.length, "factory", "factories")} worth ${why.per_tile} each (${ORDINAL[why.rank]} at the table), ${place(cells)}: ${points} points`,
        String(why.per_tile), `factory worth ${why.per_tile}`);
    }
    const ranking = table.scores.cities.map((c, i) => (c ? { i, count: c.explanation.factories.count, rank: c.factory_rank, per: c.explanation.factories.per_tile } : null))
      .filter(Boolean).sort((a, b) => b.count - a.count);
    lines.push({ text: "Factories at the table: " + ranking.map((c) => `${cityName(c.i)} ${c.count}${c.count ? ` (${c.per} each)` : ""}`).join(", ")
      + ". The most score 4 each, the second most 3, the others 2." });
  }
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

// --- scoreboard --------------------------------------------------------------------------

// Automaville from tile counts, scored "maximally" (solo beginner mode).
function countsExplanation(category, why, points) {
  const sets = (list) => list.map((s) => `${s.points} for ${s.size}`).join(" + ");
  switch (category) {
    case "shops": return `Shops ${points}: ${why.count} as if optimally placed` + (why.count ? ` (${sets(why.sets)})` : "");
    case "factories": return `Factories ${points}: ${why.count} × ${why.per_tile} (rank ${why.rank || "-"} at the table)`;
    case "taverns": return `Taverns ${points}: best sets ` + (why.sets.map((s) => `${s.points} for ${s.kinds.map((k) => k.slice(7)).join("+")}`).join(", ") || "none");
    case "offices": return `Offices ${points}: ${sets(why.sets) || "none"}` + (why.tavern_bonus ? `, +1 for each of the ${why.count} (Automaville has a tavern)` : "");
    case "parks": return `Parks ${points}: ${why.count} as separate pairs` + (why.count ? ` (${why.groups.map((g) => `${g.points} for ${g.size === 2 ? "a pair" : "one"}`).join(" + ")})` : "");
    default: return `Houses ${points}: ${why.count} × ${why.per_house} (${why.other_types.join(", ") || "no other types"}; none next to a factory)`;
  }
}

function scoreboard() {
  const s = table.scores;
  const root = el("div");
  if (s.complete) root.append(results(s)); // results first: the winner, then the detail
  const corner = el("th", { scope: "col" }, el("span", { className: "visually-hidden", textContent: "Category" }));
  const head = el("tr", {}, corner);
  // Columns are named by who built each city; the small city number matches the cards below.
  s.cities.forEach((_, i) => head.append(el("th", { scope: "col" },
    el("span", { className: "builders", textContent: cityName(i) }), el("small", { textContent: `city ${i + 1}` }))));
  const body = el("tbody");
  for (const category of CATEGORIES) {
    const row = el("tr", {}, el("th", { scope: "row", textContent: category }));
    s.cities.forEach((city, i) => {
      if (!city) { row.append(el("td", { textContent: "–" })); return; }
      const button = el("button", { type: "button", className: "score", textContent: city.scores[category] });
      button.setAttribute("aria-label", `${category}, ${cityName(i)}: ${city.scores[category]}, show why`);
      button.dataset.category = category;
      button.dataset.city = i + 1;
      button.dataset.focus = `score:${category}:${i}`;
      button.addEventListener("click", () => {
        const why = city.explanation[category];
        highlight = city.mode === "counts"
          ? { city: i, marks: {}, title: countsExplanation(category, why, city.scores[category]), lines: [] }
          : explainInWords(category, i);
        render();
        document.querySelector(`.city[data-city="${i + 1}"]`).scrollIntoView({ behavior: "smooth", block: "center" });
      });
      row.append(el("td", {}, button));
    });
    body.append(row);
  }
  if (s.cities.some((city) => city && city.difficulty)) {
    // the solo difficulty, a line of its own: Automaville's buildings + the modifier = its total
    const level = el("tr", { className: "difficulty" }, el("th", { scope: "row", textContent: "difficulty" }));
    s.cities.forEach((city) => level.append(el("td", {
      textContent: city && city.difficulty ? `${city.difficulty.modifier >= 0 ? "+" : ""}${city.difficulty.modifier}` : "",
      title: city && city.difficulty ? city.difficulty.line : "" })));
    body.append(level);
  }
  const total = el("tr", { className: "sum" }, el("th", { scope: "row", textContent: "total" }));
  s.cities.forEach((city) => total.append(el("td", {
    textContent: city ? city.scores.total + (city.modifier || 0) : "–",
    title: city && city.difficulty ? city.difficulty.line : "" })));
  body.append(total);
  const ranks = el("tr", {}, el("th", { scope: "row", textContent: "factory rank" }));
  s.cities.forEach((city) => ranks.append(el("td", { textContent: city ? (["-", "1st", "2nd", "other"][city.factory_rank]) : "–" })));
  body.append(ranks);
  const scroll = el("div", { className: "scroll" }, el("table", { className: "scores" }, el("thead", {}, head), body));
  scroll.tabIndex = 0; // scrollable with the keyboard when the cities do not fit
  scroll.setAttribute("role", "region");
  scroll.setAttribute("aria-label", "Points by city");
  root.append(scroll);
  (s.warnings || []).forEach((w) => root.append(el("p", { className: "hint warn supply", textContent: `Check the cities: ${w}.` })));
  if (!s.complete) root.append(el("p", { className: "hint", textContent: "Final scores appear when every city is read." }));
  return root;
}

// Every city is known: the winner and each player's final score.
function results(s) {
  const box = el("div", { className: "results" }, el("p", { className: "winner", textContent: `Winner: ${s.winner.join(" and ")}` }));
  const list = el("ol", { className: "players" });
  for (const p of s.players) {
    const where = p.final_city ? `city ${p.final_city}` : "both cities";
    list.append(el("li", { value: p.rank }, el("b", { textContent: p.name }), ` ${p.final} points (${where})`));
  }
  box.append(el("h3", { textContent: "Final scores" }), list);
  s.tiebreaks.forEach((t) => box.append(el("p", { className: "hint", textContent: `Tie: ${t}` })));
  return box;
}

// render() rebuilds the page; the control that had the keyboard focus gets it back.
function focusedKey() {
  const node = document.activeElement;
  return node && node.dataset ? node.dataset.focus : undefined;
}

function refocus(key) {
  if (!key) return;
  const node = [...document.querySelectorAll("[data-focus]")].find((n) => n.dataset.focus === key);
  if (node && !node.disabled) node.focus({ preventScroll: true });
}

function render() {
  const focus = focusedKey();
  document.title = `${table.name} · Between Two Cities`;
  $("table-name").textContent = table.name;
  const variant = { 1: "solo against Automaville", 2: "two-player variant" }[table.players.length] || `${table.players.length} players`;
  $("seating").textContent = `${variant}, seated clockwise: ${table.players.join(", ")}` + (table.players.length === 1 ? ` · difficulty ${table.difficulty}` : "");
  $("seating-diagram").replaceChildren(seatingDiagram());
  fitSeating();
  const cities = $("cities");
  cities.replaceChildren(...table.cities.map(cityCard));
  $("scoreboard").replaceChildren(scoreboard());
  // Once every city is known the results come first, right under the table's name.
  const board = $("scoreboard-card");
  const complete = Boolean(table.scores.complete);
  $("scoreboard-title").textContent = complete ? "Results" : "Scoreboard";
  if (complete && board.previousElementSibling !== $("table-card")) $("table-card").after(board);
  if (!complete && cities.nextElementSibling !== board) cities.after(board);
  $("all-photos-button").disabled = busy.size > 0;
  $("table-photo-button").disabled = busy.size > 0;
  $("table-card").setAttribute("aria-busy", String(wholeTable));
  renderSeating();
  $("export-json").href = `${api}/export.json`;
  $("export-csv").href = `${api}/export.csv`;
  refocus(focus);
}

$("all-photos-button").addEventListener("click", () => $("all-photos").click());
$("all-photos").addEventListener("change", (e) => sendPhotos(takeFiles(e.target), 0));
$("table-photo-button").addEventListener("click", () => $("table-photo").click());
$("table-photo").addEventListener("change", (e) => sendTablePhoto(takeFiles(e.target)[0]));
$("seating-right").addEventListener("click", closeSeating);
window.addEventListener("resize", () => { if (seatShot) fitTags(); });
$("rename").addEventListener("click", async () => {
  if (!(await loaded())) return;
  const name = prompt("Table name", table.name);
  if (!name) return;
  try { table = await call("PATCH", api, { name }); render(); } catch (error) { showError(error.message); }
});
$("delete").addEventListener("click", async () => {
  if (!(await loaded())) return;
  if (!confirm(`Delete ${table.name}?`)) return;
  try { await call("DELETE", api); } catch (error) { showError(error.message); return; }
  location.href = "/";
});
loading = load();
loading.catch((error) => showError(error.message));
