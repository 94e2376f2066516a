// The size of a JPEG frame read from its header in JavaScript, for the hot path of every AI call. sharp's
// metadata() reads the same header, but through a libvips worker thread: a stream object, a hop to the thread
// pool and back, and a thread to wake per call, which under load cost more than the rest of the frame check
// together (bench/vision.ts). This walks and checks the same segments libjpeg's jpeg_read_header does and
// answers null on anything unusual (and for every PNG: libspng checks every chunk before the image data, and
// PNG frames are rare), so that sharp, with its error messages, decides those.
export interface ImageHeader {
  format: "jpeg";
  width: number;
  height: number;
}

export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xd8) return readJpegHeader(bytes);
  return null;
}

const u16 = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;

/** Every start-of-frame marker (the range holds DHT, JPG and DAC too). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
/** The frames cameras and browsers make: baseline, extended sequential and progressive, Huffman-coded, 8-bit. */
const isCommonFrame = (marker: number) => marker === 0xc0 || marker === 0xc1 || marker === 0xc2;

/**
 * Walks the marker segments from SOI to the first SOS, as libjpeg's header reader does, checking each segment's
 * length and the contents of SOF, DQT, DHT and SOS. The image size is the frame header's; the entropy-coded data
 * after SOS is not read (sharp's metadata() does not read it either).
 */
function readJpegHeader(bytes: Uint8Array): ImageHeader | null {
  let at = 2;
  let frame: { width: number; height: number; components: number[] } | null = null;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // A second SOI, the end, a stuffed zero, restart markers or TEM before the scan: not a header sharp reads.
    if (marker === 0xd8 || marker === 0xd9 || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return null;
    const length = u16(bytes, at + 2);
    const start = at + 4;
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) return null;
    if (isStartOfFrame(marker)) {
      if (frame || !isCommonFrame(marker)) return null; // a second frame header (libjpeg refuses it), or a rare kind: sharp decides
      const components = bytes[start + 5] ?? 0;
      const precision = bytes[start]!;
      const ids = Array.from({ length: components }, (_, c) => bytes[start + 6 + c * 3]!);
      frame = { height: u16(bytes, start + 1), width: u16(bytes, start + 3), components: ids };
      if (length !== 8 + 3 * components || components < 1 || components > 4 || precision !== 8) return null;
      if (frame.width === 0 || frame.height === 0) return null; // height 0 means a DNL marker, which libjpeg does not support
      for (let c = 0; c < components; c++) {
        const sampling = bytes[start + 7 + c * 3]!;
        const h = sampling >> 4,
          v = sampling & 15;
        if (h < 1 || h > 4 || v < 1 || v > 4 || bytes[start + 8 + c * 3]! > 3) return null;
      }
    } else if (marker === 0xdb) {
      if (!validQuantTables(bytes, start, end)) return null;
    } else if (marker === 0xc4) {
      if (!validHuffmanTables(bytes, start, end)) return null;
    } else if (marker === 0xdd) {
      if (length !== 4) return null; // DRI
    } else if (!(marker >= 0xe0 && marker <= 0xef) && marker !== 0xfe && marker !== 0xda) {
      return null; // not APPn, COM or SOS: a marker libjpeg may refuse in a header (sharp decides)
    } else if (marker === 0xda) {
      if (!frame) return null;
      const count = bytes[start]!;
      if (count < 1 || count > frame.components.length || length !== 6 + 2 * count) return null;
      const scanned = Array.from({ length: count }, (_, c) => bytes[start + 1 + c * 2]!);
      if (!scanned.every((id, c) => frame!.components.includes(id) && scanned.indexOf(id) === c)) return null;
      return { format: "jpeg", width: frame.width, height: frame.height };
    }
    at = end;
  }
  return null;
}

function validQuantTables(bytes: Uint8Array, start: number, end: number): boolean {
  let at = start;
  while (at < end) {
    const spec = bytes[at]!;
    const precision = spec >> 4,
      id = spec & 15;
    if (precision > 1 || id > 3) return false;
    at += 1 + 64 * (precision + 1);
  }
  return at === end;
}

function validHuffmanTables(bytes: Uint8Array, start: number, end: number): boolean {
  let at = start;
  while (at < end) {
    const spec = bytes[at]!;
    if (spec >> 4 > 1 || (spec & 15) > 3 || at + 17 > end) return false;
    let symbols = 0;
    for (let i = 1; i <= 16; i++) symbols += bytes[at + i]!;
    if (symbols > 256) return false;
    at += 17 + symbols;
  }
  return at === end;
}
