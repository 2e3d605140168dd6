// Draws Goodfund's icon set (a white heart on the brand-green rounded square) into app/:
// favicon.ico (16, 32 and 48 px PNGs inside an ICO), icon.png (192 px) and apple-icon.png (180 px).
import { writeFileSync } from "node:fs";
import { PNG } from "pngjs";

const BRAND = [0x1a, 0x7f, 0x5a];

/** Coverage of one pixel, supersampled 4×4, by the rounded square (1) and the heart (2). */
function draw(size) {
  const png = new PNG({ width: size, height: size });
  const radius = 0.22;
  const inSquare = (x, y) => {
    const dx = Math.max(Math.abs(x - 0.5) - (0.5 - radius), 0);
    const dy = Math.max(Math.abs(y - 0.5) - (0.5 - radius), 0);
    return dx * dx + dy * dy <= radius * radius;
  };
  const inHeart = (x, y) => {
    // The classic heart curve, scaled into the middle of the square.
    const hx = (x - 0.5) / 0.3;
    const hy = (0.47 - y) / 0.3;
    const a = hx * hx + hy * hy - 1;
    return a * a * a - hx * hx * hy * hy * hy <= 0;
  };
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let sq = 0;
      let ht = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          if (inSquare(x, y)) {
            sq++;
            if (inHeart(x, y)) ht++;
          }
        }
      }
      const i = (py * size + px) * 4;
      const h = sq === 0 ? 0 : ht / sq;
      for (let c = 0; c < 3; c++) png.data[i + c] = Math.round(BRAND[c] * (1 - h) + 255 * h);
      png.data[i + 3] = Math.round((255 * sq) / (n * n));
    }
  }
  return PNG.sync.write(png);
}

function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, k) => {
    const e = 6 + 16 * k;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

writeFileSync("app/favicon.ico", ico([16, 32, 48].map((size) => ({ size, data: draw(size) }))));
writeFileSync("app/icon.png", draw(192));
writeFileSync("app/apple-icon.png", draw(180));
console.log("wrote app/favicon.ico, app/icon.png, app/apple-icon.png");
