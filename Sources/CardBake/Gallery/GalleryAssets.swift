/// The preview gallery's inline style sheet and script.
enum GalleryAssets {
    /// A neutral page that follows the system's light or dark appearance, a centred summary, and
    /// centred, wrapping rows of cards at their own size.
    static let style = """
        :root{color-scheme:light dark;--page:#ececee;--ink:#1d1d1f;--muted:#6e6e73;\
        --shadow:0 1px 2px rgb(0 0 0/.10),0 10px 30px rgb(0 0 0/.12)}
        @media (prefers-color-scheme:dark){:root{--page:#1c1c1e;--ink:#f5f5f7;--muted:#98989d;\
        --shadow:0 1px 2px rgb(0 0 0/.4),0 10px 30px rgb(0 0 0/.35)}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--page);color:var(--ink);\
        font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif;\
        -webkit-font-smoothing:antialiased}
        header{max-width:1480px;margin:0 auto;padding:36px 32px 4px;text-align:center}
        h1{margin:0 0 2px;font-size:20px;font-weight:650;letter-spacing:-.01em}
        header p{margin:0;color:var(--muted)}
        header p span{display:inline-block;margin:0 7px}
        main{max-width:1480px;margin:0 auto;padding:28px 32px 72px;display:flex;flex-wrap:wrap;\
        justify-content:center;align-items:flex-start;gap:40px 32px}
        .card{position:relative;flex:none;margin:0;overflow:hidden;background-size:cover;\
        box-shadow:var(--shadow);outline:none}
        .card img{position:absolute;inset:0;display:block;width:100%;height:100%}
        .card img.bitmap.arriving{animation:arrive .35s ease-out}
        @keyframes arrive{from{opacity:0}}
        figcaption{position:absolute;inset:auto 0 0;padding:36px 14px 12px;color:#fff;\
        background:linear-gradient(rgb(0 0 0/0),rgb(0 0 0/.75));opacity:0;transform:translateY(8px);\
        transition:opacity .15s,transform .15s;pointer-events:none}
        .card:hover figcaption,.card:focus-visible figcaption{opacity:1;transform:none}
        figcaption code{display:block;font:12px/1.4 ui-monospace,"SF Mono",Menlo,"DejaVu Sans Mono",monospace;\
        opacity:.8}
        figcaption span{display:block;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        """

    /// Paints the ThumbHash of each card that has no data URL and loads its bitmap once the card is
    /// within two screens of the viewport (the working range), shows the bitmap once it has decoded
    /// (fading it in when the card is on screen), drops the bitmap again once the card is more than
    /// six screens away, and reloads the page when `index-version.js` names another version.
    /// `cardbakeGallery.decodeThumbHash` is exposed for tests.
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
          window.cardbakeGallery = { decodeThumbHash };

          // The card's ThumbHash as its background, once per card.
          const painted = new WeakSet();
          const paintThumbHash = (card) => {
            if (!card.dataset.thumbhash || painted.has(card)) return;
            painted.add(card);
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
            image.alt = card.dataset.title;
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

          // The <img> removed, so that the browser can let go of its decoded pixels; the placeholder stays.
          const releaseBitmap = (card) => {
            pending.delete(card);
            card.querySelector("img.bitmap")?.remove();
            card.classList.remove("shown", "failed");
          };

          // The working range: a card whose box comes within two screens of the viewport is loaded,
          // and released once it is more than six screens away; the gap keeps a card at the edge from
          // being loaded and released as the page scrolls back and forth. The cards' boxes are measured
          // when the layout changes, so that a scroll costs a binary search and a look at the cards
          // held, where an IntersectionObserver would test every card of the page on every frame.
          const LOAD_SCREENS = 2, RELEASE_SCREENS = 6;
          const cards = [...document.querySelectorAll(".card")];
          // In page coordinates. Cards wrap in rows, so tops never decrease along the page; reach[i]
          // is the lowest bottom of cards 0 to i, which never decreases either.
          const tops = new Float64Array(cards.length), bottoms = new Float64Array(cards.length);
          const reach = new Float64Array(cards.length);
          const held = new Set();
          // A scroll before the first measure (a reload restoring its position) waits for it, rather
          // than taking every card for one at the top.
          let measured = false;
          const measure = () => {
            cards.forEach((card, i) => {
              const { top, bottom } = card.getBoundingClientRect();
              tops[i] = top + scrollY;
              bottoms[i] = bottom + scrollY;
              reach[i] = Math.max(bottoms[i], i ? reach[i - 1] : -Infinity);
            });
            measured = true;
          };
          // The first card whose bottom, or an earlier card's, reaches below `y`.
          const firstReaching = (y) => {
            let low = 0, high = cards.length;
            while (low < high) {
              const middle = (low + high) >> 1;
              if (reach[middle] < y) low = middle + 1; else high = middle;
            }
            return low;
          };
          const update = () => {
            if (!measured) return;
            const top = scrollY, bottom = top + innerHeight;
            const keepFrom = top - RELEASE_SCREENS * innerHeight, keepTo = bottom + RELEASE_SCREENS * innerHeight;
            for (const i of held) {
              if (bottoms[i] < keepFrom || tops[i] > keepTo) {
                held.delete(i);
                releaseBitmap(cards[i]);
              }
            }
            const loadFrom = top - LOAD_SCREENS * innerHeight, loadTo = bottom + LOAD_SCREENS * innerHeight;
            for (let i = firstReaching(loadFrom); i < cards.length && tops[i] <= loadTo; i++) {
              if (held.has(i) || bottoms[i] < loadFrom) continue;
              held.add(i);
              paintThumbHash(cards[i]);
              loadBitmap(cards[i]);
            }
          };
          new ResizeObserver(() => {
            measure();
            update();
          }).observe(document.body);
          addEventListener("scroll", update, { passive: true });
          addEventListener("resize", update);

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
