// Screens that change the menu (the page manager publishing or deleting a page) tell the shell, which reloads the
// signed-in user's menu (shell/Guard), so the entry appears or goes without a reload of the app.

/** Window event fired after the menus changed on the server. */
export const MENUS_CHANGED_EVENT = 'dsc:menus-changed';

export function notifyMenusChanged(): void {
  window.dispatchEvent(new Event(MENUS_CHANGED_EVENT));
}
