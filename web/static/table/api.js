// Talking to the server beyond call(): the table's address, photos shrunk and uploaded with progress.
import { $, el, inView } from "../common.js";

// The JSON API's address of the table shown (its id is the page's data-table).
export const tableApi = (tableId) => `/api/tables/${encodeURIComponent(tableId)}`;

// Files this browser could not open as a picture (sent as they are: HEIC, or not a photo).
const unopened = new WeakSet();

// One city: 2000 px on the long side is plenty; a whole table keeps 4000 px (its cities are small).
export async function shrink(file, side = 2000) {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
    const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
    if (scale === 1 && file.size < 4e6) return file;
    const canvas = el("canvas", { width: Math.round(bitmap.width * scale), height: Math.round(bitmap.height * scale) });
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise((done) => canvas.toBlob((b) => done(b || file), "image/jpeg", 0.9));
  } catch (error) {
    unopened.add(file);
    return file; // a format this browser cannot decode (e.g. HEIC): the server reads it
  }
}

// Whether a file may be a photo: its type says an image, or says nothing (HEIC, on some
// browsers). A file plainly not one is sent without asking what it would replace: the server
// refuses it, and nothing changes.
export const mayBePhoto = (file) => !file.type || file.type.startsWith("image/");

const SLOW_S = 5; // a read still running after this many seconds shows the upload's slow note

// POST a photo to url, showing "label: uploading 40 %", then "label: reading the city… 7 s",
// the seconds since it was sent counting; after SLOW_S seconds slowNote, if any, shows under the bar.
// Resolves to {ok, status, data}: the server's answer (the table, or {error}); status 0: not sent.
// reveal: scroll the bar into view (not for one city's photo: its card says it is being read).
export function upload(url, blob, label, reading = "reading the city…", slowNote = "", reveal = true) {
  return new Promise((resolve) => {
    const bar = $("progress");
    let doing = "uploading";
    const started = Date.now();
    const seconds = () => Math.round((Date.now() - started) / 1000);
    const show = () => { bar.lastElementChild.textContent = `${label}: ${doing}${seconds() ? ` ${seconds()} s` : ""}`; };
    bar.hidden = false;
    bar.firstElementChild.style.width = "0";
    show();
    if (reveal) inView(bar); // (a city's own card shows it being read: the page stays there)
    const ticking = setInterval(() => {
      show();
      if (slowNote && seconds() >= SLOW_S) showNote(slowNote);
    }, 1000);
    const form = new FormData();
    form.append("photo", blob, "photo.jpg");
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      bar.firstElementChild.style.width = `${(100 * e.loaded) / e.total}%`;
      doing = `uploading ${Math.round((100 * e.loaded) / e.total)} %`;
      show();
    };
    xhr.upload.onload = () => { doing = reading; show(); };
    const done = (answer) => { clearInterval(ticking); resolve(answer); };
    xhr.onload = () => {
      let data = {};
      try { data = JSON.parse(xhr.responseText); } catch (e) { data = { error: "unexpected reply" }; }
      // too large, and not a picture this browser could open to shrink: is it a photo at all?
      if (xhr.status === 413 && unopened.has(blob) && data.error) data.error += ", and this browser could not open it as a picture: is it a photo?";
      done({ ok: xhr.status < 300, status: xhr.status, data });
    };
    xhr.onerror = () => done({ ok: false, status: 0, data: { error: "network error: photo not sent" } });
    xhr.send(form);
  });
}

// The note under the progress bar (a live region kept in the page): written once, not each second.
function showNote(text) {
  const note = $("progress-note");
  note.hidden = false;
  if (note.textContent !== text) note.textContent = text;
}

// Once the photos are read: the bar and its note go away.
export function hideProgress() {
  $("progress").hidden = true;
  $("progress-note").hidden = true;
  $("progress-note").textContent = "";
}

// The files of a file input, which is emptied so that choosing the same photo again still counts.
export function takeFiles(input) {
  const files = [...input.files];
  input.value = "";
  return files;
}
