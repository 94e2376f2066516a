// Hydration: the client renders the same CSP nonce the server put on the page, so the markup matches.
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { NonceContext } from "./lib/nonce";

// Browsers hide the nonce attribute's value from getAttribute but keep it in the .nonce property.
const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <NonceContext.Provider value={nonce}>
        <HydratedRouter />
      </NonceContext.Provider>
    </StrictMode>,
  );
});
