// Renders every story in jsdom through Storybook's portable stories; any thrown error or
// console.error fails the story's test.
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { act, cleanup, render, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import preview from '../.storybook/preview';

setProjectAnnotations(preview);

type StoryModule = Parameters<typeof composeStories>[0];
// the shared stories here, and each widget kind's beside it in its folder (widgets/<kind>/<kind>.stories.tsx)
const modules = import.meta.glob<StoryModule>(['./**/*.stories.tsx', '../widgets/*/*.stories.tsx'], { eager: true });
const kinds = Object.keys(import.meta.glob('../widgets/*/*.widget.json')).map((f) => f.split('/')[2]);

describe.each(Object.entries(modules))('%s', (_file, mod) => {
  const stories = Object.entries(composeStories(mod));
  it.each(stories)('%s renders without errors', async (_name, composed) => {
    const Story = composed as unknown as ComponentType;
    const errors: unknown[][] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      errors.push(args);
    });
    try {
      const { container } = render(<Story />);
      await act(async () => {
        await new Promise((r) => setTimeout(r, 20));
      });
      // a widget kind's code loads on first use (widgets/kindCode.ts): the story is judged once it has drawn
      await waitFor(() => expect(container.querySelector('[data-widget-loading]')).toBeNull(), { timeout: 20_000 });
      expect(container.querySelector('[data-widget-failed]')).toBeNull();
      expect(container.firstChild).not.toBeNull();
      cleanup();
    } finally {
      spy.mockRestore();
    }
    expect(errors.map((e) => e.map(String).join(' '))).toEqual([]);
  });
});

it('finds every story file, one in each widget kind\'s folder', () => {
  expect(Object.keys(modules).length).toBeGreaterThanOrEqual(8);
  expect(kinds.length).toBeGreaterThanOrEqual(17);
  for (const kind of kinds) expect(Object.keys(modules), `widgets/${kind}/${kind}.stories.tsx`).toContain(`../widgets/${kind}/${kind}.stories.tsx`);
});
