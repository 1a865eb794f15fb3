import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusTag } from './StatusTag';

describe('API status tag (spec: API detail)', () => {
  it('shows the online status once a version has passed, even while a new draft waits; the API status before', () => {
    const { unmount } = render(<StatusTag api={{ apiStatus: 1, onlineStatus: 1, resolve: true }} />);
    expect(screen.getByText('已上线')).toBeInTheDocument();
    unmount();
    render(<StatusTag api={{ apiStatus: 1, onlineStatus: 0, resolve: false }} />);
    expect(screen.getByText('待审批')).toBeInTheDocument();
  });

  it('shows both while a newer version waits and another serves: 已上线 V1 · V2 待审批', () => {
    const { container } = render(<StatusTag api={{ apiStatus: 1, onlineStatus: 1, resolve: true, pending: true, pendingVersion: 2, onlineVersion: 1 }} />);
    expect(container.textContent).toBe('已上线 V1·V2 待审批');
    expect(screen.getByText('已上线 V1')).toHaveClass('ant-tag');
    expect(screen.getByText('V2 待审批')).toHaveClass('ant-tag');
  });
});
