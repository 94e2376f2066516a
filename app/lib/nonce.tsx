// The CSP nonce of this response, handed from entry.server to the document's scripts.
import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
