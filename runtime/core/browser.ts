// Full-page navigation goes through this object so unit tests can observe it
// (jsdom cannot navigate).
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
  /** The current address, path + query + hash, for "redirect back here" links. */
  currentAddress(): string {
    const { pathname, search, hash } = window.location;
    return pathname + search + hash;
  },
};
