// Blob store on the local filesystem: write to a temp file, fsync, rename, fsync the directory, so a
// crash never leaves a half-written blob under its real name.
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { ProblemError } from "../errors";
import { assertSafeBlobKey, sha256Of, type BlobStore } from "./blob";

const TEMP_PREFIX = ".tmp-";

export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertSafeBlobKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    const dir = path.dirname(target);
    const temp = path.join(dir, `${TEMP_PREFIX}${randomBytes(6).toString("hex")}`);
    try {
      await mkdir(dir, { recursive: true });
      const file = await open(temp, "wx", 0o600);
      try {
        await file.writeFile(data);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
      const dirHandle = await open(dir, "r");
      try {
        await dirHandle.sync();
      } finally {
        await dirHandle.close();
      }
    } catch (error) {
      await unlink(temp).catch(() => {});
      if ((error as NodeJS.ErrnoException).code === "ENOSPC" || (error as NodeJS.ErrnoException).code === "EDQUOT") {
        throw new ProblemError(507, "The image store is full; nothing was saved. Free some space or contact the operator.");
      }
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async stream(key: string): Promise<Readable | null> {
    try {
      return (await open(this.pathOf(key), "r")).createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    const info = await stat(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    return Boolean(info?.isFile());
  }

  async sha256(key: string): Promise<string | null> {
    const stream = await this.stream(key);
    return stream ? sha256Of(stream) : null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix.replace(/\/+$/, "")), { recursive: true, force: true });
  }

  async *scan(before: Date): AsyncIterable<{ key: string; temporary: boolean }> {
    let entries;
    try {
      entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const info = await stat(file).catch(() => null); // deleted meanwhile
      if (!info || info.mtime >= before) continue;
      yield { key: path.relative(this.root, file).split(path.sep).join("/"), temporary: entry.name.startsWith(TEMP_PREFIX) };
    }
  }
}
