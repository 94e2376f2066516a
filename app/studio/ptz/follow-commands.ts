// The Follow switch as a command (data, see ../commands): on only when box detection runs and a PTZ camera is
// connected (./follow-controller says why not); it can always be switched off.
import type { Command } from "../commands";
import type { FollowController } from "./follow-controller";

type FollowContext = { follow: FollowController };

export const followCommands: Command<FollowContext>[] = [
  {
    id: "ptz.follow",
    label: "Follow",
    icon: "switch",
    enabled: ({ follow }) => follow.store.get().enabled || follow.unavailable() === null,
    pressed: ({ follow }) => follow.store.get().enabled,
    perform: ({ follow }) => follow.setEnabled(!follow.store.get().enabled),
  },
];
