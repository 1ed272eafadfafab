// The tags on a whole-table photo: each sized to its city on screen (a small city gets a small
// tag that leaves it visible), the builders' names only where they fit across the cities, every
// tag inside the photo and none over another.
import { $, el } from "../common.js";

const FONT_PX = [11, 16]; // a tag's font: the smallest that reads well, the largest needed
const FONT_SHARE = 0.2; // ... else this share of its city's side on screen
const NAMES_SHARE = 1; // the names show when each tag with them is at most as wide as its city

// A tag for the city within corners ([[x, y] x4], photo pixels): centred on it, sized by fitTags.
export function seatTag(corners, className, ...children) {
  const tag = el("span", { className: `seat-tag ${className}`.trim() }, ...children);
  const mid = (k) => corners.reduce((sum, p) => sum + p[k], 0) / 4;
  const side = corners.reduce((sum, [x, y], i) => {
    const [nx, ny] = corners[(i + 1) % 4];
    return sum + Math.hypot(nx - x, ny - y);
  }, 0) / 4;
  Object.assign(tag.dataset, { x: mid(0), y: mid(1), side });
  tag.setAttribute("aria-hidden", "true"); // the list of seats says the same
  return tag;
}

// Size and place every tag of the photo box (its data-width: the photo's width in pixels). The
// builders' names show on every tag or none: only where each tag with them fits across its city.
export function fitTags() {
  const box = $("seat-photo");
  const scale = box.clientWidth / Number(box.dataset.width);
  const tags = [...box.querySelectorAll(".seat-tag")];
  if (!scale || !tags.length) return; // not laid out (hidden): placed when shown
  const sides = tags.map((tag) => Number(tag.dataset.side) * scale);
  tags.forEach((tag, i) => {
    tag.style.fontSize = `${Math.min(FONT_PX[1], Math.max(FONT_PX[0], FONT_SHARE * sides[i]))}px`;
    tag.classList.remove("short");
  });
  const fit = tags.every((tag, i) => !tag.querySelector(".names") || tag.offsetWidth <= NAMES_SHARE * sides[i]);
  tags.forEach((tag) => tag.classList.toggle("short", !fit));
  const boxes = tags.map((tag) => {
    const [w, h] = [tag.offsetWidth, tag.offsetHeight];
    return { x: Number(tag.dataset.x) * scale - w / 2, y: Number(tag.dataset.y) * scale - h / 2, w, h };
  });
  keepApart(boxes, box.clientWidth, box.clientHeight);
  tags.forEach((tag, i) => Object.assign(tag.style, { left: `${boxes[i].x}px`, top: `${boxes[i].y}px` }));
}

// Boxes moved inside width x height, then apart: each pair that overlaps moves apart the short
// way, half each, until none does (a few passes; cities themselves do not overlap).
function keepApart(boxes, width, height) {
  const inside = (b) => {
    b.x = Math.min(Math.max(b.x, 0), Math.max(width - b.w, 0));
    b.y = Math.min(Math.max(b.y, 0), Math.max(height - b.h, 0));
  };
  boxes.forEach(inside);
  for (let pass = 0; pass < 20; pass++) {
    let moved = false;
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
      const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (dx <= 0 || dy <= 0) return;
      moved = true;
      const axis = dx < dy ? "x" : "y";
      const step = ((axis === "x" ? dx : dy) / 2 + 1) * (a[axis] < b[axis] ? -1 : 1);
      a[axis] += step;
      b[axis] -= step;
      inside(a);
      inside(b);
    }));
    if (!moved) return;
  }
}
