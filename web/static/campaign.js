// Solo campaigns: the list and new-campaign form (/campaigns), and one campaign (/campaigns/<id>).
import { $, ask, call, el } from "./common.js";
const PLURAL = { shop: "shops", factory: "factories", tavern: "taverns", office: "offices", park: "parks", house: "houses" };
const showError = (message) => { $("campaign-error").textContent = message || ""; };


const settings = (c) => `${c.length} games · difficulty ${c.difficulty} · ${c.mode} mode` + (c.player ? ` · ${c.player}` : "");

// --- the list page ---------------------------------------------------------------------------

async function listPage() {
  $("new-campaign").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try {
      const c = await call("POST", "/api/campaigns", {
        name: form.get("name"), length: Number(form.get("length")),
        difficulty: Number(form.get("difficulty")), mode: form.get("mode") });
      window.location.href = `/campaigns/${encodeURIComponent(c.id)}`;
    } catch (error) { showError(error.message); }
  });
  if (!$("campaigns")) return; // host mode: no lists
  let data;
  try { data = await call("GET", "/api/campaigns"); } catch (error) { showError(error.message); return; }
  const link = (c) => el("a", { href: `/campaigns/${encodeURIComponent(c.id)}`, textContent: c.name });
  $("best").replaceChildren(data.best.length ? el("ol", { className: "best-campaigns" }, ...data.best.map((c) =>
    el("li", {}, link(c), ` — ${c.total} campaign points `, el("span", { className: "hint", textContent: settings(c) }))))
    : el("p", { className: "hint", textContent: "No finished campaign yet." }));
  $("campaigns").replaceChildren(...data.campaigns.map((c) => el("li", {}, link(c), " ",
    el("span", { className: "hint", textContent: `${settings(c)} · ${c.games.length} of ${c.length} played · ${c.total} points` }))));
  if (!data.campaigns.length) $("campaigns").append(el("li", { className: "hint", textContent: "No campaigns yet." }));
}

// --- one campaign ----------------------------------------------------------------------------

const card = $("campaign");
const api = card ? `/api/campaigns/${encodeURIComponent(card.dataset.campaign)}` : null;

function renderCampaign(c) {
  document.title = `${c.name} · solo campaign`;
  $("campaign-name").textContent = c.name;
  $("campaign-settings").textContent = settings(c);
  const items = c.games.map((g) => {
    const table = g.deleted ? el("span", { textContent: `${g.table_name || "deleted table"} (deleted)` })
      : el("a", { href: `/tables/${encodeURIComponent(g.table)}`, textContent: g.table_name || g.table });
    const remove = el("button", { type: "button", className: "small danger", textContent: "Remove",
      onclick: () => removeGame(g.game) });
    remove.setAttribute("aria-label", `Remove game ${g.game}`);
    return el("li", { className: "campaign-game" },
      el("p", {}, el("strong", { textContent: `Game ${g.game}: ${g.line}` }), " · ", table, ` · ${PLURAL[g.type]}`),
      el("ul", { className: "parts hint" }, ...g.parts.map((p) => el("li", { textContent: `${p.points}: ${p.line}` }))),
      remove);
  });
  const status = c.complete ? `Final: ${c.line} campaign points`
    : c.games.length ? `After ${c.games.length} of ${c.length} games: ${c.line} campaign points` : "No games yet.";
  $("standings").replaceChildren(
    ...(c.games.length ? [el("ol", { className: "tables campaign-games" }, ...items)] : []),
    el("p", { id: "campaign-total", className: c.complete ? "winner" : "", textContent: status }));
  $("add-game-card").hidden = c.complete;
  $("add-game-title").textContent = `Add game ${c.games.length + 1} of ${c.length}`;
  const select = $("game-table");
  const candidates = c.candidates || [];
  select.replaceChildren(el("option", { value: "", textContent: candidates.length ? "Choose a table…" : "None finished yet at this difficulty and mode" }),
    ...candidates.map((t) => el("option", { value: t.id, textContent: `${t.name} (${t.player})` })));
  select.closest("label").hidden = card.dataset.hostMode === "1";
  $("game-type").replaceChildren(...c.types_left.map((t) => el("option", { value: t, textContent: PLURAL[t] })));
}

async function loadCampaign() {
  try { renderCampaign(await call("GET", api)); } catch (error) { showError(error.message); }
}

async function removeGame(number) {
  if (!(await ask(`Remove game ${number} from this campaign? Its table stays.`, "Remove"))) return;
  try { renderCampaign(await call("DELETE", `${api}/games/${number}`)); showError(""); } catch (error) { showError(error.message); }
}

function campaignPage() {
  $("add-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const table = $("game-link").value.trim() || $("game-table").value;
    if (!table) { showError("choose a finished solo table, or paste its link"); return; }
    try {
      renderCampaign(await call("POST", `${api}/games`, { table, type: $("game-type").value }));
      $("game-link").value = "";
      showError("");
    } catch (error) { showError(error.message); }
  });
  $("delete-campaign").addEventListener("click", async () => {
    if (!(await ask("Delete this campaign? Its tables stay.", "Delete"))) return;
    try { await call("DELETE", api); window.location.href = "/campaigns"; } catch (error) { showError(error.message); }
  });
  loadCampaign();
}

if (card) campaignPage(); else listPage();
