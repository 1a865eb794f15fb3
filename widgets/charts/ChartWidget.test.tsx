import { render } from '@testing-library/react';
import { ChartWidget } from './ChartWidget';

const data = { mapping: [], rows: [] };
const base = { width: 300, height: 200, top: 0, left: 0, lineColor: '#3BA0FF', colors: ['#111111'] };

describe('ChartWidget', () => {
  it('builds the option again when a look prop or the data changes, never when the widget only moves or resizes', () => {
    const build = vi.fn(() => ({ series: [] }));
    const { rerender, container, unmount } = render(<ChartWidget widget="x" viewProps={base} data={data} build={build} />);
    expect(container.querySelector('[data-widget="x"]')).not.toBeNull();
    expect(build).toHaveBeenCalledTimes(1);
    // dragged and resized: a new props object, the same look
    rerender(<ChartWidget widget="x" viewProps={{ ...base, top: 40, left: 80, width: 320, height: 240 }} data={data} build={build} />);
    expect(build).toHaveBeenCalledTimes(1);
    rerender(<ChartWidget widget="x" viewProps={{ ...base, top: 40, lineColor: '#FF0000' }} data={data} build={build} />);
    expect(build).toHaveBeenCalledTimes(2);
    expect(build).toHaveBeenLastCalledWith(expect.not.objectContaining({ top: expect.anything() }), data);
    const next = { mapping: [], rows: [{ x: 1 }] };
    rerender(<ChartWidget widget="x" viewProps={{ ...base, top: 40, lineColor: '#FF0000' }} data={next} build={build} />);
    expect(build).toHaveBeenCalledTimes(3);
    // a new array with the same colours is a new value (as the kinds' own dependency lists had it)
    rerender(<ChartWidget widget="x" viewProps={{ ...base, top: 40, lineColor: '#FF0000', colors: ['#111111'] }} data={next} build={build} />);
    expect(build).toHaveBeenCalledTimes(4);
    unmount();
  });
});
