import React from "react";
import { act, render, screen } from "@testing-library/react";
import { ToastRegion } from "./toast-region";
import { prepareToasts, showToast } from "../lib/toasts";

describe("ToastRegion", () => {
  it("puts nothing on the page (and loads no toast library) until toasts are wanted", () => {
    const { container } = render(<ToastRegion label="Notifications" />);
    expect(container).toBeEmptyDOMElement();
  });

  it("shows the container once the visitor reaches the form, and a toast with its title and text", async () => {
    render(<ToastRegion label="Notifications" />);
    await act(async () => prepareToasts());
    expect(await screen.findByRole("region", { name: "Notifications" })).toBeInTheDocument();
    await act(async () => showToast("success", { title: "Sent", text: "We will call you." }));
    const toast = await screen.findByRole("alert");
    expect(toast).toHaveTextContent("Sent");
    expect(toast).toHaveTextContent("We will call you.");
  });
});
