import { act, fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { WidgetProps } from '@rjsf/utils';
import { ColorWidget, PRESET_COLORS } from './ColorWidget';

describe('colour widget', () => {
  it('offers the palette of 10 predefined colours; picking one sets its value', async () => {
    const onChange = vi.fn();
    const props = { id: 'c', value: '', onChange, schema: {}, rawErrors: [] } as unknown as WidgetProps;
    const { container } = render(<ColorWidget {...props} />);
    await act(async () => fireEvent.click(container.querySelector('.ant-color-picker-trigger')!));
    const swatches = document.querySelectorAll('.ant-color-picker-presets-color');
    expect(PRESET_COLORS).toHaveLength(10);
    expect(swatches).toHaveLength(10);
    await act(async () => fireEvent.click(swatches[3]));
    expect(onChange).toHaveBeenLastCalledWith('#1677FF');
  });
});
