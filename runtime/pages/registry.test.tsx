import { render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { resolveComponent, viewNames } from './registry';

const show = (component: string) => {
  const C = resolveComponent(component) as ComponentType;
  render(
    <Suspense fallback="加载中">
      <C />
    </Suspense>,
  );
};

describe('component registry', () => {
  it('finds views by folder name', async () => {
    expect(viewNames()).toEqual(expect.arrayContaining(['Home', 'Profile', 'ChatBi', 'ChatForm', 'Solution']));
    show('view:ChatForm');
    expect(await screen.findByText('知识库视图')).toBeInTheDocument();
  });

  it('shows 页面未找到 for an unknown view instead of crashing', async () => {
    show('view:NoSuchView');
    expect(await screen.findByText('页面未找到')).toBeInTheDocument();
  });

  it('returns the same lazy component for the same name (no remounts)', () => {
    expect(resolveComponent('view:Home')).toBe(resolveComponent('view:Home'));
  });
});
