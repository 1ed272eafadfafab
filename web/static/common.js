// What every page's script uses (an ES module): $ (an element by id), el (make an element), call
// (the JSON API: throws an Error with the server's message on a 4xx/5xx answer), inView and
// buildingName.
export const $ = (id) => document.getElementById(id);
export const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};

// Scroll an element into view when it is not (a message or a progress bar shown above, or a
// screen below, the button that was pressed); a smooth scroll unless the player asked for less motion.
export function inView(node) {
  const box = node.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  node.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
}

export async function call(method, url, body) {
  const options = { method, headers: {} };
  if (body instanceof FormData) {
    options.body = body; // an upload: the browser sets the multipart headers
  } else if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data = {};
  if (response.status !== 204) {
    try { data = await response.json(); } catch (error) { data = {}; }
  }
  if (!response.ok) throw Object.assign(new Error(data.error || `request failed (${response.status})`), { status: response.status });
  return data;
}

// "tavern-drink" -> "Drink tavern", "shop" -> "Shop": a building as the page names it.
export const buildingName = (b) => (b.startsWith("tavern-")
  ? `${b.slice(7)[0].toUpperCase()}${b.slice(8)} tavern` : `${b[0].toUpperCase()}${b.slice(1)}`);

// A question asked in the page rather than with the browser's confirm() or prompt() (which show
// the app's address, look like a warning from the phone and can be turned off): a modal
// <dialog>, its "yes" named for what it does; Cancel or Escape answer no (a tap beside it does
// not: the second tap of a double tap on the button that opened it would).
// ask resolves true or false; askText (a line to type, ``value`` filled in, of ``longest``
// characters at most) the line or null.
export const ask = (question, yes) => dialog(question, yes, null).then((answer) => answer !== null);
export const askText = (question, yes, value, longest) => dialog(question, yes, value, longest);

function dialog(question, yes, value, longest) {
  const text = value === null ? null : el("input", { name: "answer", value, required: true, autocomplete: "off",
    ...(longest ? { maxLength: longest } : {}), pattern: ".*\\S.*", title: "Type at least one letter or digit" });
  const form = el("form", { method: "dialog" }, el("p", { className: "ask-question", textContent: question }),
    ...(text ? [text] : []),
    el("div", { className: "row ask-buttons" },
      el("button", { type: "button", className: "small ask-no", textContent: "Cancel" }),
      el("button", { type: "submit", value: "yes", className: "small primary ask-yes", textContent: yes })));
  if (text) text.setAttribute("aria-label", question);
  const box = el("dialog", { className: "ask" }, form);
  box.setAttribute("aria-label", question);
  document.body.append(box);
  return new Promise((resolve) => {
    form.querySelector(".ask-no").addEventListener("click", () => box.close(""));
    box.addEventListener("close", () => { // "yes": the line typed (never blank: its pattern), or ""
      box.remove();
      resolve(box.returnValue !== "yes" ? null : text ? text.value.trim() : "");
    });
    showDialog(box);
    if (text) text.select();
  });
}

// A modal dialog shown so that a phone's Back closes it rather than leaving the page: opening it
// adds a step to the history, and closing it any other way (a button, Escape) takes that step
// back again; ``owed`` counts those steps, whose popstate is the page's, not the player's.
const shown = []; // the dialogs open, the latest last
let owed = 0;
addEventListener("popstate", () => {
  if (owed) { owed -= 1; return; }
  const latest = shown.pop();
  if (latest) latest.close(""); // the player's Back: "" is a cancel, as Escape gives
});

export function showDialog(box) {
  if (box.open) return;
  box.showModal();
  history.pushState({ dialog: true }, "");
  shown.push(box);
  box.addEventListener("close", () => {
    const at = shown.indexOf(box);
    if (at < 0) return; // closed by Back: its step is gone already
    shown.splice(at, 1);
    owed += 1;
    history.back();
  }, { once: true });
}
