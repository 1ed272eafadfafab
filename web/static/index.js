// New-table form: names in seating order, solo difficulty shown for one player.
import { $, ask, buildingName, call, el } from "./common.js";
import { sentence } from "./table/words.js";
const form = document.getElementById("new-table");
// One name per line or between commas; blank lines are skipped, an empty name between commas
// is sent so that the server refuses it rather than seating one player fewer.
const names = () => form.players.value.split("\n").filter((line) => line.trim())
  .flatMap((line) => line.split(",")).map((s) => s.trim());
form.players.addEventListener("input", () => {
  const seen = names();
  document.getElementById("difficulty-row").hidden = seen.length !== 1;
  document.getElementById("players-seen").textContent = playersSeen(seen);
  document.getElementById("create-error").textContent = ""; // about the names before
});

// The players as the table will have them, so that "Ann Ben Cy" (no commas) is not a surprise.
function playersSeen(seen) {
  if (!seen.length) return "";
  const most = Number(form.dataset.maxPlayers);
  if (seen.length > most) return `${seen.length} players: ${seen.join(" · ")}. The game seats at most ${most}.`;
  if (seen.length > 1) return `${seen.length} players: ${seen.join(" · ")}`;
  const solo = `1 player, solo against Automaville: “${seen[0]}”`;
  return /[\s;|/]/.test(seen[0]) ? `${solo}. Several players? Put a comma or a new line between their names.` : solo;
}
// Back from the table just created: an empty form (the browser would bring the names back), so
// that the same table is not made twice by mistake.
window.addEventListener("pageshow", () => {
  form.reset();
  document.getElementById("players-seen").textContent = "";
  document.getElementById("difficulty-row").hidden = true;
  form.querySelector("button[type=submit]").disabled = false;
});

// One table per tap: the button waits while the table is being made (a double tap made two).
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = form.querySelector("button[type=submit]");
  if (button.disabled) return;
  const body = { name: form.name.value, players: names() };
  if (body.players.length === 1) body.difficulty = Number(form.difficulty.value);
  const error = document.getElementById("create-error");
  error.textContent = "";
  button.disabled = true;
  try {
    const data = await call("POST", "/api/tables", body);
    location.href = `/tables/${encodeURIComponent(data.id)}`;
  } catch (e) {
    error.textContent = e.status ? `${sentence(e.message)} Nothing was created.`
      : "The app could not be reached: nothing was created. Try again.";
    button.disabled = false;
  }
});

// "Your copy of the game": what the reader learned from the players' corrections.
const learningCard = document.getElementById("learning");

function showLearning(data) {
  const cells = data.cells || 0;
  $("learning-summary").textContent = data.active && cells
    ? `Learned from ${cells} cell${cells === 1 ? "" : "s"}${data.doubtful ? ` (${data.doubtful} left out as doubtful)` : ""}.`
      + (data.inks ? " It also learned your printing’s colours: a photo whose tiles read surer through them is read so." : "")
      + (data.pictures ? ` It knows the pictures of ${data.pictures} of those cells: a tile whose picture is clearly one of them is read as its building.` : "")
    : "Nothing learned yet: photos are read with the shipped model.";
  $("learning-counts").replaceChildren(...Object.entries(data.learned || {}).map(([b, n]) => {
    const item = document.createElement("li");
    item.dataset.building = b;
    item.textContent = `${buildingName(b)}: ${n}`;
    return item;
  }));
  const anchors = data.anchors || {};
  const check = $("learning-check");
  check.hidden = !(data.active && anchors.adapted != null && anchors.shipped != null);
  const of = anchors.total ? ` of ${anchors.total}` : "";
  check.textContent = check.hidden ? "" : `Checked before use on the app's built-in example tiles: with what it learned from you, ${anchors.adapted}${of} read right; without it, ${anchors.shipped}.`;
  // Nothing learned (nor refused): nothing to forget or to carry to another machine.
  const none = !data.active && !cells && !data.refused;
  $("forget-learning").disabled = none;
  $("export-learning").hidden = none;
  const refused = $("learning-refused");
  refused.hidden = !data.refused;
  refused.textContent = data.refused || "";
  const imported = $("learning-imported");
  imported.hidden = !data.imported;
  if (data.imported) {
    const { added, known } = data.imported;
    imported.textContent = `Imported: ${added} new cell${added === 1 ? "" : "s"}`
      + (known ? `; ${known} ${known === 1 ? "was" : "were"} learned already (not counted twice).` : ".");
  }
}


async function learningAction(action) {
  const error = document.getElementById("learning-error");
  error.textContent = "";
  try { showLearning(await action()); } catch (e) { error.textContent = e.message; }
}

if (learningCard) {
  learningAction(() => call("GET", "/api/learning"));
  document.getElementById("forget-learning").addEventListener("click", async () => {
    if (!(await ask("Forget every tile the reader learned from your corrections?", "Forget"))) return;
    learningAction(() => call("DELETE", "/api/learning"));
  });
  // Teaching starts with a table: the new-table form, named for it, ready for the players.
  document.getElementById("teach-start").addEventListener("click", () => {
    const form = document.getElementById("new-table");
    form.elements.name.value = "Teaching the reader";
    form.scrollIntoView({ block: "start" });
    form.elements.players.focus();
    if (!names().length) document.getElementById("players-seen").textContent =
      "Type two or more names (any will do: one city is all it takes), then Create table: photograph a city there and correct what it misread. One name makes a solo table against Automaville, which teaches as well.";
  });
  const input = document.getElementById("import-learning");
  input.addEventListener("change", () => {
    if (!input.files.length) return;
    const body = new FormData();
    body.append("file", input.files[0]);
    input.value = "";
    learningAction(() => call("POST", "/api/learning/import", body));
  });
}

// "Past tables" and "Players": each table's date, winner and final scores, and the players'
// statistics over the complete tables (not shown in host mode, where the sections are absent).
const historyCard = document.getElementById("history");


const localDate = (seconds) => new Date(seconds * 1000).toLocaleString(undefined, {
  weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit",
});

function tableResult(summary) {
  if (!summary.complete) {
    return el("span", { className: "hint table-progress",
      textContent: summary.seating_unchecked ? "Every city read: seating to check"
        : `${summary.known} of ${summary.cities} cities` });
  }
  const winners = summary.winner || [];
  const label = winners.length > 1 ? `Shared win: ${winners.join(" and ")}` : `Winner: ${winners[0]}`;
  const scores = (summary.scores || []).map((s) => `${s.name} ${s.final}`).join(" · ");
  return el("span", { className: "table-result" },
    el("strong", { className: "table-winner", textContent: label }),
    el("span", { className: "table-scores", textContent: scores }));
}

function showHistory(tables) {
  const list = document.getElementById("tables-list");
  list.replaceChildren(...tables.map((t) => {
    // the list is in the order of the latest change to each table: its time is shown
    const when = el("time", { className: "hint", dateTime: new Date(t.updated * 1000).toISOString(),
      textContent: localDate(t.updated) });
    return el("li", {},
      el("div", { className: "table-head" },
        el("a", { href: `/tables/${encodeURIComponent(t.id)}`, textContent: t.name }), when),
      el("span", { className: "hint table-players", textContent: t.players.join(", ") }),
      tableResult(t.summary));
  }));
  tables.forEach((t, i) => { list.children[i].dataset.id = t.id; });
  list.hidden = !tables.length;
  document.getElementById("no-tables").hidden = tables.length > 0;
}

function showStats(players) {
  const table = document.getElementById("stats-table");
  table.tBodies[0].replaceChildren(...players.map((p) => el("tr", {},
    el("th", { scope: "row", textContent: p.name }),
    ...[p.games, p.wins, p.average === null ? "–" : p.average.toFixed(1), p.best ?? "–", p.best_city].map(
      (value) => el("td", { textContent: String(value) })))));
  table.hidden = !players.length;
  document.getElementById("stats-note").hidden = !players.length;
  document.getElementById("stats-empty").hidden = players.length > 0;
}


if (historyCard) {
  const error = document.getElementById("history-error");
  call("GET", "/api/history").then((data) => showHistory(data.tables))
    .catch((e) => { error.textContent = `Scores not shown: ${e.message}`; });
  call("GET", "/api/stats").then((data) => showStats(data.players))
    .catch((e) => { error.textContent = `Statistics not shown: ${e.message}`; });
}

// A table deleted from its page comes here: a snackbar offers to bring it back (the server
// keeps a deleted table ten minutes).
function offerRestore() {
  const deleted = JSON.parse(sessionStorage.getItem("deleted-table") || "null");
  sessionStorage.removeItem("deleted-table");
  if (!deleted || typeof deleted.id !== "string") return;
  const undo = $("snackbar-undo");
  $("snackbar-text").textContent = `${deleted.name} deleted.`;
  $("snackbar").hidden = false;
  undo.addEventListener("click", async () => {
    undo.disabled = true;
    try {
      await call("POST", `/api/tables/${encodeURIComponent(deleted.id)}/restore`);
      location.href = `/tables/${encodeURIComponent(deleted.id)}`;
    } catch (e) {
      $("snackbar-text").textContent = `Not brought back: ${e.message}`;
      undo.hidden = true;
    }
  });
  $("snackbar-close").addEventListener("click", () => { $("snackbar").hidden = true; });
}

offerRestore();
