// Splits an H.264 Annex-B byte stream (as ffmpeg writes it to a pipe) into access units: NAL units are separated
// by 00 00 01 start codes and every access unit begins with an access unit delimiter (x264 `aud=1`), so a frame
// is complete when the next delimiter arrives (one frame of latency, ~67 ms at 15 fps).
export const NAL = { SLICE: 1, IDR: 5, SEI: 6, SPS: 7, PPS: 8, AUD: 9 } as const;

export const nalType = (nal: Uint8Array) => nal[0]! & 0x1f;

export class AnnexBSplitter {
  private buffer: Buffer = Buffer.alloc(0);
  private unit: Buffer[] = [];

  constructor(private readonly onAccessUnit: (nals: Buffer[]) => void) {}

  push(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let start = startCode(this.buffer, 0);
    if (start < 0) return;
    for (;;) {
      const headerEnd = start + 3;
      const next = startCode(this.buffer, headerEnd);
      if (next < 0) break;
      // A 4-byte start code (00 00 00 01) leaves its leading zero at the end of the previous NAL: trim zeros.
      let end = next;
      while (end > headerEnd && this.buffer[end - 1] === 0) end--;
      this.nal(this.buffer.subarray(headerEnd, end));
      // The next NAL is a delimiter: the frame before it is complete now, whatever follows.
      if (next + 3 < this.buffer.length && nalType(this.buffer.subarray(next + 3)) === NAL.AUD) this.flush();
      start = next;
    }
    this.buffer = Buffer.from(this.buffer.subarray(start));
  }

  private nal(nal: Buffer) {
    if (nal.length === 0) return;
    if (nalType(nal) === NAL.AUD) return this.flush();
    this.unit.push(Buffer.from(nal));
  }

  private flush() {
    if (this.unit.length) this.onAccessUnit(this.unit);
    this.unit = [];
  }
}

function startCode(buffer: Buffer, from: number): number {
  for (let i = buffer.indexOf(1, from + 2); i >= 0; i = buffer.indexOf(1, i + 1)) {
    if (i >= 2 && buffer[i - 1] === 0 && buffer[i - 2] === 0 && i - 2 >= from) return i - 2;
  }
  return -1;
}
