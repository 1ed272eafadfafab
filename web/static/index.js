// New-table form: names in seating order, solo difficulty shown for one player.
const form = document.getElementById("new-table");
const names = () => form.players.value.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
form.players.addEventListener("input", () => {
  document.getElementById("difficulty-row").hidden = names().length !== 1;
});
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { name: form.name.value, players: names(), difficulty: Number(form.difficulty.value) };
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
