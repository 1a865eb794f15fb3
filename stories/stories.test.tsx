// Renders every story in jsdom through Storybook's portable stories; any thrown error or
// console.error fails the story's test.
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { act, cleanup, render } from '@testing-library/react';
import type { ComponentType } from 'react';
import preview from '../.storybook/preview';

setProjectAnnotations(preview);

type StoryModule = Parameters<typeof composeStories>[0];
const modules = import.meta.glob<StoryModule>('./**/*.stories.tsx', { eager: true });

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
      expect(container.firstChild).not.toBeNull();
      cleanup();
    } finally {
      spy.mockRestore();
    }
    expect(errors.map((e) => e.map(String).join(' '))).toEqual([]);
  });
});

it('finds every story file', () => {
  expect(Object.keys(modules).length).toBeGreaterThanOrEqual(8);
});
