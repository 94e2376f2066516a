// Where the server may open a connection to a camera (PTZ control now, RTSP streams later): an address in the
// LAN-allowed profile (PTZ_ALLOWED_NETWORKS) and a camera protocol's port (PTZ_ALLOWED_PORTS), both checked
// before any connection, so the relay cannot be used to scan other hosts or services.
import { config } from "../config";
import { lanAllowed, type AddressPolicy } from "./address-policy";
import { describePorts, portAllowed, type PortRange } from "./ports";
import { AddressRefused, resolveAllowed, systemLookup, type LookupAll } from "./resolve";

export interface CameraTargetPolicy {
  addresses: AddressPolicy;
  ports: readonly PortRange[];
}

export function cameraTargetPolicy(): CameraTargetPolicy {
  return { addresses: lanAllowed(config().ptz.allowedNetworks), ports: config().ptz.allowedPorts };
}

/**
 * The address to connect to for a camera at host:port: the port is checked first (no DNS for a refused port),
 * then the host resolved once and judged. Throws AddressRefused (with a message naming the setting) or
 * HostUnresolved.
 */
export async function resolveCameraTarget(host: string, port: number, policy: CameraTargetPolicy, lookup: LookupAll = systemLookup): Promise<string> {
  if (!portAllowed(policy.ports, port)) {
    throw new AddressRefused("outside", `Port ${port} is not a camera port this server connects to (${describePorts(policy.ports)}; PTZ_ALLOWED_PORTS)`);
  }
  try {
    return await resolveAllowed(host, policy.addresses, lookup);
  } catch (error) {
    if (!(error instanceof AddressRefused)) throw error;
    const why = error.kind === "not-public" ? `: ${error.reason}` : "";
    throw new AddressRefused(error.kind, `The camera address ${host} is outside the networks this server may control (PTZ_ALLOWED_NETWORKS)${why}`);
  }
}
