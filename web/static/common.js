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
