/// The preview gallery's inline style sheet and script.
enum GalleryAssets {
    /// A neutral page that follows the system's light or dark appearance, a centred summary, a search
    /// bar that stays at the top, and centred rows of cards at their own size, placed by the script.
    static let style = """
        :root{color-scheme:light dark;--page:#ececee;--ink:#1d1d1f;--muted:#6e6e73;--empty:#dcdce0;\
        --field:#fff;--line:rgb(0 0 0/.14);--accent:#0a6cff;\
        --shadow:0 1px 2px rgb(0 0 0/.10),0 10px 30px rgb(0 0 0/.12)}
        @media (prefers-color-scheme:dark){:root{--page:#1c1c1e;--ink:#f5f5f7;--muted:#98989d;--empty:#2c2c2e;\
        --field:#2c2c2e;--line:rgb(255 255 255/.16);--accent:#3d8bff;\
        --shadow:0 1px 2px rgb(0 0 0/.4),0 10px 30px rgb(0 0 0/.35)}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--page);color:var(--ink);\
        font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif;\
        -webkit-font-smoothing:antialiased}
        header{max-width:1480px;margin:0 auto;padding:36px 32px 4px;text-align:center}
        h1{margin:0 0 2px;font-size:20px;font-weight:650;letter-spacing:-.01em}
        header p{margin:0;color:var(--muted)}
        header p span{display:inline-block;margin:0 7px}
        #search{position:sticky;top:0;z-index:1;display:flex;justify-content:center;align-items:center;gap:12px;\
        margin:0;padding:12px 32px;background:var(--page)}
        #search input{width:min(420px,60vw);padding:7px 12px;border:1px solid var(--line);border-radius:8px;\
        background:var(--field);color:inherit;font:inherit}
        #search select{padding:6px 8px;border:1px solid var(--line);border-radius:8px;background:var(--field);\
        color:inherit;font:inherit}
        #search output{flex:0 1 auto;max-width:40vw;overflow:hidden;color:var(--muted);text-overflow:ellipsis;\
        white-space:nowrap}
        main{position:relative;max-width:1480px;margin:0 auto;padding:16px 32px 72px;row-gap:40px;column-gap:32px}
        .note{text-align:center;color:var(--muted)}
        .card{position:absolute;margin:0;overflow:hidden;background-color:var(--empty);background-size:cover;\
        box-shadow:var(--shadow);outline:none}
        .card.found{outline:4px solid var(--accent);outline-offset:4px}
        .card img{position:absolute;inset:0;display:block;width:100%;height:100%}
        .card img.bitmap.arriving{animation:arrive .35s ease-out}
        @keyframes arrive{from{opacity:0}}
        figcaption{position:absolute;inset:auto 0 0;padding:36px 14px 12px;color:#fff;\
        background:linear-gradient(rgb(0 0 0/0),rgb(0 0 0/.75));opacity:0;transform:translateY(8px);\
        transition:opacity .15s,transform .15s;pointer-events:none}
        .card:hover figcaption,.card:focus-visible figcaption,.card.found figcaption{opacity:1;transform:none}
        figcaption code{display:block;font:12px/1.4 ui-monospace,"SF Mono",Menlo,"DejaVu Sans Mono",monospace;\
        opacity:.8}
        figcaption span{display:block;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        """

    /// Lays out every card from the sizes in the page; keeps in the DOM only the cards within two
    /// screens of the viewport (the working range), each placed as soon as it comes near, filled in
    /// from its chunk (placeholder colour and data URL, or its ThumbHash painted) and given its bitmap,
    /// shown once decoded (faded in when the card is on screen); drops a card, its bitmap and then its
    /// chunk once it is more than six screens away. The search box finds a card by id or title words
    /// and jumps to it. A catalog with `locales` gets a switch between them: the page's `lang` and `dir`
    /// follow it (rows run from the right edge right to left), and the cards, titles and search show
    /// that locale's. Reloads the page when `index-version.js` names another version.
    /// `cardbakeGallery.decodeThumbHash` is exposed for tests, `cardbakeGallery.cardsMeeting` for the
    /// scroll benchmark, and the performance mark `cardbake-cards-painted` for the first-paint benchmark.
    static let script = #"""
        (() => {
          "use strict";
          // ThumbHash (https://github.com/evanw/thumbhash) bytes to RGBA pixels, at most 32 px on the long side.
          // Header: L, P, Q averages and the L scale in 24 bits; the L count along the short side, the P and Q
          // scales and the orientation in 16 bits; with alpha, its average and scale in one byte. Then one
          // 4-bit DCT coefficient per term: L, P, Q (and A), each a triangle of cx/cy frequencies.
          const decodeThumbHash = (hash) => {
            const header24 = hash[0] | hash[1] << 8 | hash[2] << 16, header16 = hash[3] | hash[4] << 8;
            const hasAlpha = header24 >> 23 & 1, isLandscape = header16 >> 15 & 1;
            const longCount = hasAlpha ? 5 : 7, shortCount = header16 & 7;
            const ratio = isLandscape ? longCount / shortCount : shortCount / longCount;
            const width = Math.round(ratio > 1 ? 32 : 32 * ratio), height = Math.round(ratio > 1 ? 32 / ratio : 32);
            let nibble = 2 * (hasAlpha ? 6 : 5);
            // A channel's terms as parallel arrays: column frequency, row frequency, coefficient.
            const channel = (average, nx, ny, scale) => {
              const cxs = [], cys = [], fs = [];
              for (let cy = 0; cy < ny; cy++) {
                for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++, nibble++) {
                  cxs.push(cx);
                  cys.push(cy);
                  fs.push(((hash[nibble >> 1] >> ((nibble & 1) << 2) & 15) / 7.5 - 1) * scale * 2);
                }
              }
              return { average, cxs, cys, fs };
            };
            const l = channel((header24 & 63) / 63, Math.max(3, isLandscape ? longCount : shortCount),
                              Math.max(3, isLandscape ? shortCount : longCount), (header24 >> 18 & 31) / 31);
            const p = channel((header24 >> 6 & 63) / 31.5 - 1, 3, 3, (header16 >> 3 & 63) / 63 * 1.25);
            const q = channel((header24 >> 12 & 63) / 31.5 - 1, 3, 3, (header16 >> 9 & 63) / 63 * 1.25);
            const a = hasAlpha ? channel((hash[5] & 15) / 15, 5, 5, (hash[5] >> 4) / 15) : { average: 1, fs: [] };
            // The cosines of 8 frequencies at each column and each row, computed once.
            const cosines = (size) => {
              const table = new Float64Array(size * 8);
              for (let i = 0; i < size; i++) {
                for (let c = 0; c < 8; c++) table[i * 8 + c] = Math.cos(Math.PI / size * (i + 0.5) * c);
              }
              return table;
            };
            const fx = cosines(width), fy = cosines(height);
            const sum = ({ average, cxs, cys, fs }, x, y) => {
              let value = average;
              for (let k = 0; k < fs.length; k++) value += fs[k] * fx[x * 8 + cxs[k]] * fy[y * 8 + cys[k]];
              return value;
            };
            const rgba = new Uint8ClampedArray(width * height * 4);
            for (let y = 0, i = 0; y < height; y++) {
              for (let x = 0; x < width; x++, i += 4) {
                const lum = sum(l, x, y), yellowBlue = sum(p, x, y), redGreen = sum(q, x, y);
                const b = lum - 2 / 3 * yellowBlue, r = (3 * lum - b + redGreen) / 2;
                rgba[i] = 255 * r;
                rgba[i + 1] = 255 * (r - redGreen);
                rgba[i + 2] = 255 * b;
                rgba[i + 3] = 255 * sum(a, x, y);
              }
            }
            return { width, height, rgba };
          };
          const gallery = JSON.parse(document.getElementById("gallery-data").textContent);
          const main = document.querySelector("main");
          const count = gallery.count;

          // Each card's size, from the runs of sizes (base64 VLQ: see GallerySizes).
          const widths = new Float64Array(count), heights = new Float64Array(count);
          {
            const digits = new Int8Array(128);
            [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"].forEach((c, i) => digits[c.charCodeAt(0)] = i);
            let at = 0;
            const next = () => {
              let value = 0, scale = 1, digit;
              do {
                digit = digits[gallery.runs.charCodeAt(at++)];
                value += (digit & 31) * scale;
                scale *= 32;
              } while (digit & 32);
              return value;
            };
            for (let card = 0; card < count;) {
              const head = next(), [width, height] = gallery.sizes[Math.floor(head / 2)];
              const run = head % 2 ? next() + 2 : 1;
              widths.fill(width, card, card + run);
              heights.fill(height, card, card + run);
              card += run;
            }
          }

          // The chunk files, each with the position of its first card.
          const chunkList = (list) => {
            let first = 0;
            return list.map(([digest, cards]) => {
              const chunk = { file: gallery.folder + digest + ".js", first, cards };
              first += cards;
              return chunk;
            });
          };
          const cardChunks = chunkList(gallery.cards), titleChunks = chunkList(gallery.titles);

          // The locale shown: the page's `?locale=` when it is one of the catalog's, else the source
          // locale (the first). A card's records hold its translations last, by locale.
          const locales = new Map(gallery.locales ?? []), source = gallery.locales?.[0]?.[0];
          let locale = source;
          const inLocale = (record, fields) => locale === source ? fields : record.at(-1)?.[locale] ?? fields;
          const chunkOf = (chunks, position) => {
            let low = 0, high = chunks.length - 1;
            while (low < high) {
              const middle = (low + high + 1) >> 1;
              if (chunks[middle].first <= position) low = middle; else high = middle - 1;
            }
            return chunks[low];
          };

          // A chunk is a script that calls cardbakeGallery.chunk with its records: a page opened from
          // file:// may load scripts but not fetch files. Each file's records as a promise, kept while
          // a card held needs them; a chunk that fails to load (a rebuild removed it) stays failed.
          const loading = new Map(), delivered = new Map();
          const load = (file) => {
            if (!loading.has(file)) {
              loading.set(file, new Promise((resolve, reject) => {
                const script = document.createElement("script");
                script.src = file;
                delivered.set(script, resolve);
                script.onload = script.onerror = () => {
                  delivered.delete(script);
                  script.remove();
                  reject(new Error(`${file} holds no chunk`));
                };
                document.head.append(script);
              }));
            }
            return loading.get(file);
          };
          const chunk = (records) => delivered.get(document.currentScript)?.(records);

          // The card's ThumbHash as its background, once per card.
          const paintThumbHash = (card) => {
            if (!card.dataset.thumbhash) return;
            try {
              const bytes = Uint8Array.from(atob(card.dataset.thumbhash), (c) => c.charCodeAt(0));
              const { width, height, rgba } = decodeThumbHash(bytes);
              const canvas = document.createElement("canvas");
              canvas.width = width;
              canvas.height = height;
              canvas.getContext("2d").putImageData(new ImageData(rgba, width, height), 0, 0);
              // The card's background rather than the canvas: a canvas in the page is a layer that
              // the main thread updates on every frame while it is on screen.
              card.style.backgroundImage = `url("${canvas.toDataURL()}")`;
              card.style.backgroundSize = "100% 100%";
            } catch {
              // A malformed hash leaves the placeholder colour.
            }
          };

          // The bitmap of each card being loaded, until it has decoded or the card is released.
          const pending = new Map();
          const loadBitmap = (card) => {
            const image = new Image();
            image.className = "bitmap";
            image.alt = card.dataset.title ?? "";
            image.decoding = "async";
            image.srcset = card.dataset.srcset;
            image.src = card.dataset.src;
            pending.set(card, image);
            // Into the page once decoded. Faded in only where the reader sees it arrive: a fade is a
            // layer of its own that the browser rasterises again, and a card decoded ahead, off
            // screen, needs none.
            // `then` once the decode settles, unless the card was released meanwhile.
            const settled = (then) => () => {
              if (pending.get(card) !== image) return;
              pending.delete(card);
              then();
            };
            image.decode().then(settled(() => {
              const { top, bottom } = card.getBoundingClientRect();
              if (bottom > 0 && top < innerHeight) image.classList.add("arriving");
              card.insertBefore(image, card.querySelector("figcaption"));
              card.classList.add("shown");
            }), settled(() => card.classList.add("failed")));
          };

          // The first cards filled in: marked once the frame that shows them has been made.
          let firstFilled = false;
          const markFirstPaint = () => {
            if (firstFilled) return;
            firstFilled = true;
            requestAnimationFrame(() => setTimeout(() => performance.mark("cardbake-cards-painted")));
          };

          // A card's record from its chunk: placeholder colour and data URL first (or its ThumbHash
          // painted), then its bitmap.
          const fill = (card, record) => {
            const [id] = record, [color, dataURL, thumbhash, src, srcset] = inLocale(record, record.slice(1, 6));
            card.record = record;
            card.id = id;
            card.querySelector("code").textContent = id;
            card.querySelector("img.bitmap")?.remove();
            card.classList.remove("shown", "failed");
            card.style.backgroundColor = color;
            card.style.backgroundImage = card.style.backgroundSize = "";
            delete card.dataset.thumbhash;
            if (dataURL) {
              card.style.backgroundImage = `url("${dataURL}")`;
            } else if (thumbhash) {
              card.dataset.thumbhash = thumbhash;
              paintThumbHash(card);
            }
            card.dataset.src = src;
            card.dataset.srcset = srcset;
            loadBitmap(card);
            markFirstPaint();
          };
          const entitle = (card, record) => {
            const [title] = inLocale(record, [record[1]]);
            card.titleRecord = record;
            card.dataset.title = title;
            card.querySelector("figcaption span").textContent = title;
            const image = card.querySelector("img.bitmap") ?? pending.get(card);
            if (image) image.alt = title;
          };

          // The layout: every card at its size in rows as wide as the page allows, each row centred,
          // as a wrapping flex box would place them; computed from the sizes alone, so the page is as
          // tall as all its cards from the start. Positions in main's content box, then in the page.
          const xs = new Float64Array(count), ys = new Float64Array(count);
          const tops = new Float64Array(count), bottoms = new Float64Array(count);
          // reach[i] is the lowest bottom of cards 0 to i, which never decreases along the page.
          const reach = new Float64Array(count);
          let laidOut = null;
          const layOut = () => {
            const style = getComputedStyle(main);
            const [left, top, right, bottom] = ["Left", "Top", "Right", "Bottom"].map((side) => parseFloat(style["padding" + side]));
            const width = main.clientWidth - left - right, gapX = parseFloat(style.columnGap) || 0, gapY = parseFloat(style.rowGap) || 0;
            if (laidOut?.width !== width) {
              let rowStart = 0, rowWidth = 0, rowHeight = 0, y = 0;
              const endRow = (end) => {
                const shift = (width - rowWidth) / 2;
                for (let i = rowStart; i < end; i++) {
                  xs[i] += shift;
                  ys[i] = y;
                }
                y += rowHeight + gapY;
              };
              for (let i = 0; i < count; i++) {
                if (i > rowStart && rowWidth + gapX + widths[i] > width + 0.01) {
                  endRow(i);
                  [rowStart, rowWidth, rowHeight] = [i, 0, 0];
                }
                xs[i] = i > rowStart ? rowWidth + gapX : 0;
                rowWidth = xs[i] + widths[i];
                rowHeight = Math.max(rowHeight, heights[i]);
              }
              if (count) endRow(count);
              main.style.height = `${top + Math.max(0, y - gapY) + bottom}px`;
              for (const [i, card] of held) position(card, i);
            }
            const origin = main.getBoundingClientRect().top + scrollY + top;
            if (laidOut?.width !== width || laidOut.origin !== origin) {
              for (let i = 0; i < count; i++) {
                tops[i] = origin + ys[i];
                bottoms[i] = tops[i] + heights[i];
                reach[i] = Math.max(bottoms[i], i ? reach[i - 1] : -Infinity);
              }
            }
            laidOut = { width, origin, left, top };
          };
          // Right to left, each row runs from the right edge.
          const position = (card, i) => {
            const x = document.documentElement.dir === "rtl" ? laidOut.width - xs[i] - widths[i] : xs[i];
            card.style.left = `${laidOut.left + x}px`;
            card.style.top = `${laidOut.top + ys[i]}px`;
          };
          // The first card whose bottom, or an earlier card's, reaches below `y`.
          const firstReaching = (y) => {
            let low = 0, high = count;
            while (low < high) {
              const middle = (low + high) >> 1;
              if (reach[middle] < y) low = middle + 1; else high = middle;
            }
            return low;
          };
          // How many cards meet the band from `top` to `bottom`, in page coordinates.
          const cardsMeeting = (top, bottom) => {
            let meeting = 0;
            for (let i = firstReaching(top); i < count && tops[i] < bottom; i++) {
              if (bottoms[i] > top) meeting++;
            }
            return meeting;
          };

          // The cards in the DOM, by position, in the DOM in that order (for the keyboard's order).
          const held = new Map();
          const place = (i) => {
            const card = document.createElement("figure");
            card.className = "card";
            card.tabIndex = 0;
            card.style.width = `${widths[i]}px`;
            card.style.height = `${heights[i]}px`;
            card.innerHTML = "<figcaption><code></code><span></span></figcaption>";
            position(card, i);
            let next = null, nextPosition = Infinity;
            for (const [j, other] of held) {
              if (j > i && j < nextPosition) [next, nextPosition] = [other, j];
            }
            main.insertBefore(card, next);
            held.set(i, card);
            const cards = chunkOf(cardChunks, i), titles = chunkOf(titleChunks, i);
            load(cards.file).then((records) => held.get(i) === card && fill(card, records[i - cards.first]),
                                  () => card.classList.add("failed"));
            load(titles.file).then((records) => held.get(i) === card && entitle(card, records[i - titles.first]),
                                   () => {});
          };
          // The card out of the DOM, so that the browser can let go of its decoded pixels.
          const release = (i) => {
            const card = held.get(i);
            held.delete(i);
            pending.delete(card);
            card.remove();
          };

          // The working range: a card whose box comes within two screens of the viewport is placed and
          // loaded, and released once it is more than six screens away (unless it has the focus); the
          // gap keeps a card at the edge from being loaded and released as the page scrolls back and
          // forth. A scroll costs a binary search and a look at the cards held, whatever the catalog.
          const LOAD_SCREENS = 2, RELEASE_SCREENS = 6;
          const update = () => {
            if (!laidOut) return;
            const top = scrollY, bottom = top + innerHeight;
            const keepFrom = top - RELEASE_SCREENS * innerHeight, keepTo = bottom + RELEASE_SCREENS * innerHeight;
            for (const [i, card] of held) {
              if ((bottoms[i] < keepFrom || tops[i] > keepTo) && card !== document.activeElement) release(i);
            }
            const loadFrom = top - LOAD_SCREENS * innerHeight, loadTo = bottom + LOAD_SCREENS * innerHeight;
            for (let i = firstReaching(loadFrom); i < count && tops[i] <= loadTo; i++) {
              if (!held.has(i) && bottoms[i] >= loadFrom) place(i);
            }
            // Chunks no card held needs are let go (a search keeps its own copy of the titles).
            const needed = new Set();
            for (const i of held.keys()) {
              needed.add(chunkOf(cardChunks, i).file);
              needed.add(chunkOf(titleChunks, i).file);
            }
            for (const file of loading.keys()) {
              if (!needed.has(file)) loading.delete(file);
            }
          };
          window.cardbakeGallery = { decodeThumbHash, chunk, cardsMeeting };
          layOut();
          update();
          new ResizeObserver(() => {
            layOut();
            update();
          }).observe(document.body);
          addEventListener("scroll", update, { passive: true });
          addEventListener("resize", update);

          // The search box: an exact id, then ids that start with the text, then titles with a word
          // starting with each word typed. The ids and titles come from the titles' chunks, every one
          // loaded on the box's first use. Enter goes to the next match: scrolled to, focused, ringed.
          const form = document.getElementById("search"), box = form.elements.q, status = form.querySelector("output");
          const folded = (text) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
          const words = (text) => folded(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
          let index = null;
          const searchIndex = () => index ??= Promise.all(titleChunks.map((titles) => load(titles.file))).then((lists) => {
            const ids = [], titles = [];
            for (const records of lists) {
              for (const record of records) {
                ids.push(record[0]);
                titles.push(" " + words(inLocale(record, [record[1]])[0]).join(" "));
              }
            }
            return { ids, titles };
          });
          const find = ({ ids, titles }, query) => {
            const id = query.trim().toLowerCase(), terms = words(query).map((term) => " " + term);
            const exact = [], starting = [], titled = [];
            if (!id) return exact;
            for (let i = 0; i < ids.length; i++) {
              if (ids[i] === id) exact.push(i);
              else if (ids[i].startsWith(id)) starting.push(i);
              else if (terms.length && terms.every((term) => titles[i].includes(term))) titled.push(i);
            }
            return exact.concat(starting, titled);
          };
          let search = { query: null, matches: [], next: 0 };
          const matching = async () => {
            const query = box.value;
            if (search.query !== query) {
              search = { query, matches: find(await searchIndex(), query), next: 0 };
            }
            return search;
          };
          const jumpTo = (i) => {
            scrollTo({ top: tops[i] - Math.max(0, (innerHeight - heights[i]) / 2), behavior: "instant" });
            update();
            const card = held.get(i);
            document.querySelector(".card.found")?.classList.remove("found");
            card.classList.add("found");
            card.focus({ preventScroll: true });
          };
          box.addEventListener("focus", () => searchIndex().catch(() => {}));
          box.addEventListener("input", async () => {
            const { query, matches } = await matching().catch(() => ({ query: box.value, matches: [] }));
            if (query !== box.value) return;
            status.value = !query.trim() ? "" : matches.length ? `${matches.length} found: Enter goes to each` : "None found";
          });
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            const found = await matching().catch(() => ({ query: box.value, matches: [] }));
            if (!found.matches.length) {
              status.value = found.query.trim() ? "None found" : "";
              return;
            }
            const at = found.next, i = found.matches[at];
            found.next = (at + 1) % found.matches.length;
            status.value = `${at + 1} of ${found.matches.length}: ${(await searchIndex()).ids[i]}`;
            jumpTo(i);
          });
          // The locale switch: the page's language and direction follow it, the cards held are filled in
          // again in it, and the address keeps it (`?locale=ar`) for a reload or a link.
          const show = (tag) => {
            if (!locales.has(tag)) return;
            locale = tag;
            document.documentElement.lang = tag;
            document.documentElement.dir = locales.get(tag);
            if (form.elements.locale) form.elements.locale.value = tag;
            index = null;
            search = { query: null, matches: [], next: 0 };
            for (const [i, card] of held) {
              position(card, i);
              if (card.record) fill(card, card.record);
              if (card.titleRecord) entitle(card, card.titleRecord);
            }
          };
          if (form.elements.locale) {
            const names = (tag) => { try { return new Intl.DisplayNames([tag], { type: "language" }).of(tag); } catch { return tag; } };
            for (const option of form.elements.locale.options) option.textContent = `${names(option.value)} (${option.value})`;
            form.elements.locale.addEventListener("change", () => {
              show(form.elements.locale.value);
              const address = new URL(location.href);
              address.searchParams.set("locale", locale);
              history.replaceState(null, "", address);
            });
          }
          show(new URLSearchParams(location.search).get("locale") ?? source);
          addEventListener("keydown", (event) => {
            if (event.key === "/" && document.activeElement !== box) {
              event.preventDefault();
              box.focus();
            }
          });
          // Live reload: index-version.js sets cardbakeGalleryVersion; one small script every second,
          // none while the page is hidden.
          const version = document.documentElement.dataset.version;
          let probe = null;
          setInterval(() => {
            if (document.hidden || probe) return;
            probe = document.createElement("script");
            probe.src = "index-version.js?" + Date.now();
            probe.onload = probe.onerror = () => {
              probe.remove();
              probe = null;
              const current = window.cardbakeGalleryVersion;
              if (current && current !== version) location.reload();
            };
            document.head.append(probe);
          }, 1000);
        })();
        """#
}
