// New-table form: names in seating order, solo difficulty shown for one player.
const form = document.getElementById("new-table");
// One name per line or between commas; blank lines are skipped, an empty name between commas
// is sent so that the server refuses it rather than seating one player fewer.
const names = () => form.players.value.split("\n").filter((line) => line.trim())
  .flatMap((line) => line.split(",")).map((s) => s.trim());
form.players.addEventListener("input", () => {
  document.getElementById("difficulty-row").hidden = names().length !== 1;
});
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { name: form.name.value, players: names() };
  if (body.players.length === 1) body.difficulty = Number(form.difficulty.value);
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    document.getElementById("create-error").textContent = data.error;
    return;
  }
  location.href = `/tables/${encodeURIComponent(data.id)}`;
});

// "Your copy of the game": what the reader learned from the players' corrections.
const learningCard = document.getElementById("learning");
const buildingName = (b) => {
  const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
  return b.startsWith("tavern-") ? `${cap(b.slice(7))} tavern` : cap(b);
};

function showLearning(data) {
  const $ = (id) => document.getElementById(id);
  const cells = data.cells || 0;
  $("learning-summary").textContent = data.active && cells
    ? `Learned from ${cells} cell${cells === 1 ? "" : "s"}${data.doubtful ? ` (${data.doubtful} left out as doubtful)` : ""}.`
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
  check.textContent = check.hidden ? "" : `Built-in check cells read right: ${anchors.adapted} with your tiles, ${anchors.shipped} without.`;
  const refused = $("learning-refused");
  refused.hidden = !data.refused;
  refused.textContent = data.refused || "";
}

async function learningCall(method, url, body) {
  const response = await fetch(url, { method, body });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) throw new Error(data.error || `request failed (${response.status})`);
  return data;
}

async function learningAction(action) {
  const error = document.getElementById("learning-error");
  error.textContent = "";
  try { showLearning(await action()); } catch (e) { error.textContent = e.message; }
}

if (learningCard) {
  learningAction(() => learningCall("GET", "/api/learning"));
  document.getElementById("forget-learning").addEventListener("click", () => {
    if (!confirm("Forget every tile the reader learned from your corrections?")) return;
    learningAction(() => learningCall("DELETE", "/api/learning"));
  });
  const input = document.getElementById("import-learning");
  input.addEventListener("change", () => {
    if (!input.files.length) return;
    const body = new FormData();
    body.append("file", input.files[0]);
    input.value = "";
    learningAction(() => learningCall("POST", "/api/learning/import", body));
  });
}
