// `npm run admin -- grant|revoke <username>`: manage administrators from the command line.
import { deleteUser, findUserIdByUsername, setRole } from "../accounts/service";
import { config } from "../config";
import { openBlobStore } from "../storage/blob-store";
import { withDatabase } from "./database";

const USAGE = "Usage: npm run admin -- grant <username> | revoke <username> | delete <username>";

export async function runAdminCommand(args: string[]): Promise<number> {
  const [command, username] = args;
  if ((command !== "grant" && command !== "revoke" && command !== "delete") || !username) {
    console.error(USAGE);
    return 2;
  }
  try {
    return await withDatabase(async (db) => {
      if (command === "delete") {
        // The CLI opens the store the app serves from (BLOB_STORE) for itself.
        await deleteUser(db, openBlobStore(config().blobStore), await findUserIdByUsername(db, username));
        console.log(`${username} and everything of theirs have been deleted.`);
        return 0;
      }
      const user = await setRole(db, username, command === "grant" ? "admin" : "user");
      console.log(`${user.username} is now ${user.role === "admin" ? "an admin" : "a regular user"}.`);
      return 0;
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}
