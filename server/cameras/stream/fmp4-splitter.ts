// Cuts ffmpeg's fragmented MP4 into the init segment and whole fragments, so a fan-out can start viewers at keyframes.
//
// A new viewer needs the init segment (ftyp+moov) and then a fragment that starts on a keyframe; a viewer that
// falls behind is skipped to the next such fragment. Pure: bytes in, segments out, no I/O.

export type Fmp4Segment = { kind: "init"; data: Buffer } | { kind: "fragment"; data: Buffer; keyframe: boolean };

export class Fmp4Error extends Error {
  override name = "Fmp4Error";
}

/** No box from a camera stream is this big; a larger size means the stream is corrupt (and memory stays bounded). */
const MAX_BOX_BYTES = 64 * 1024 * 1024;
const SAMPLE_IS_NON_SYNC = 0x0001_0000; // ISO/IEC 14496-12 sample_flags: sample_is_non_sync_sample

export class Fmp4Splitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private ftyp: Buffer | undefined;
  /** trex default_sample_flags per track, from the init segment: the fallback when a fragment names none. */
  private trexFlags = new Map<number, number>();
  private fragment: Buffer[] = [];
  private initSeen = false;

  /** Feeds bytes; returns every segment they complete, in order. Throws Fmp4Error on a stream that is not fMP4. */
  push(chunk: Buffer): Fmp4Segment[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const out: Fmp4Segment[] = [];
    for (;;) {
      const box = this.nextBox();
      if (!box) return out;
      const segment = this.take(box);
      if (segment) out.push(segment);
    }
  }

  /** The whole next box once all of it has arrived. */
  private nextBox(): { type: string; data: Buffer } | undefined {
    if (this.pendingBytes < 8) return undefined;
    if (this.pending.length > 1) this.pending = [Buffer.concat(this.pending)];
    const head = this.pending[0]!;
    let size = head.readUInt32BE(0);
    const type = head.toString("latin1", 4, 8);
    if (size === 1) {
      if (head.length < 16) return undefined;
      size = Number(head.readBigUInt64BE(8));
    }
    if (size < 8 || size > MAX_BOX_BYTES) throw new Fmp4Error(`"${type}" box of ${size} bytes: not a fragmented MP4 stream`);
    if (head.length < size) return undefined;
    const data = head.subarray(0, size);
    const rest = head.subarray(size);
    this.pending = rest.length ? [rest] : [];
    this.pendingBytes = rest.length;
    return { type, data };
  }

  private take(box: { type: string; data: Buffer }): Fmp4Segment | undefined {
    switch (box.type) {
      case "ftyp":
        this.ftyp = Buffer.from(box.data);
        return undefined;
      case "moov":
        if (!this.ftyp) throw new Fmp4Error("moov before ftyp");
        this.readTrex(box.data);
        this.initSeen = true;
        return { kind: "init", data: Buffer.concat([this.ftyp, box.data]) };
      case "styp":
      case "sidx":
      case "prft":
        if (this.initSeen) this.fragment.push(Buffer.from(box.data));
        return undefined;
      case "moof":
        if (!this.initSeen) throw new Fmp4Error("moof before the init segment");
        this.fragment = [Buffer.from(box.data)];
        return undefined;
      case "mdat": {
        const moof = this.fragment.find((part) => part.toString("latin1", 4, 8) === "moof");
        if (!moof) throw new Fmp4Error("mdat without moof");
        const data = Buffer.concat([...this.fragment, box.data]);
        this.fragment = [];
        return { kind: "fragment", data, keyframe: this.startsWithSyncSample(moof) };
      }
      default:
        return undefined; // free, skip, mfra (written at the end), unknown: nothing a viewer needs
    }
  }

  private readTrex(moov: Buffer) {
    for (const mvex of children(moov, 8, "mvex")) {
      for (const trex of children(moov, mvex.start, "trex", mvex.end)) {
        // fullbox header (4), track_ID, default_sample_description_index, default_sample_duration, default_sample_size, default_sample_flags
        if (trex.end - trex.start >= 24) this.trexFlags.set(moov.readUInt32BE(trex.start + 4), moov.readUInt32BE(trex.start + 20));
      }
    }
  }

  /** The first sample's flags: trun first_sample_flags, else its per-sample flags, else tfhd's default, else trex's. */
  private startsWithSyncSample(moof: Buffer): boolean {
    const traf = children(moof, 8, "traf")[0];
    if (!traf) return false;
    const tfhd = children(moof, traf.start, "tfhd", traf.end)[0];
    const trun = children(moof, traf.start, "trun", traf.end)[0];
    if (!tfhd || !trun) return false;
    let flags: number | undefined;
    const trunFlags = moof.readUInt32BE(trun.start) & 0xffffff;
    let at = trun.start + 8; // version+flags, sample_count
    if (trunFlags & 0x1) at += 4; // data_offset
    if (trunFlags & 0x4) flags = moof.readUInt32BE(at);
    else if (trunFlags & 0x400) {
      if (trunFlags & 0x100) at += 4; // sample_duration
      if (trunFlags & 0x200) at += 4; // sample_size
      flags = moof.readUInt32BE(at);
    }
    if (flags === undefined) {
      const tfhdFlags = moof.readUInt32BE(tfhd.start) & 0xffffff;
      const trackId = moof.readUInt32BE(tfhd.start + 4);
      let offset = tfhd.start + 8;
      if (tfhdFlags & 0x1) offset += 8; // base_data_offset
      if (tfhdFlags & 0x2) offset += 4; // sample_description_index
      if (tfhdFlags & 0x8) offset += 4; // default_sample_duration
      if (tfhdFlags & 0x10) offset += 4; // default_sample_size
      flags = tfhdFlags & 0x20 ? moof.readUInt32BE(offset) : this.trexFlags.get(trackId);
    }
    return flags !== undefined && (flags & SAMPLE_IS_NON_SYNC) === 0;
  }
}

/** Child boxes of `type` between start and end: each one's payload range (after its 8-byte header). */
function children(buffer: Buffer, start: number, type: string, end = buffer.length): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (let at = start; at + 8 <= end;) {
    const size = buffer.readUInt32BE(at);
    if (size < 8 || at + size > end) break;
    if (buffer.toString("latin1", at + 4, at + 8) === type) found.push({ start: at + 8, end: at + size });
    at += size;
  }
  return found;
}
