// What every page's script uses (an ES module): $ (an element by id), el (make an element), call
// (the JSON API: throws an Error with the server's message on a 4xx/5xx answer) and buildingName.
export const $ = (id) => document.getElementById(id);
export const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};

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
