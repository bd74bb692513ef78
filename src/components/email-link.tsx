import React from "react";

/** A mailto link whose address, when its column is narrow, breaks after the "@" rather than mid-word. */
export function EmailLink({ address }: { address: string }) {
  const at = address.lastIndexOf("@");
  return (
    <a href={`mailto:${address}`}>
      {at > 0 ? (
        <>
          {address.slice(0, at + 1)}
          <wbr />
          {address.slice(at + 1)}
        </>
      ) : (
        address
      )}
    </a>
  );
}
