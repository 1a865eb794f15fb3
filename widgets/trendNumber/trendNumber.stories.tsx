import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/指标趋势',
  component: WidgetStory,
  args: widgetArgs('trendNumber'),
  argTypes: widgetArgTypes('trendNumber'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

/** 下降：差值显示。 */
export const Falling: Story = {
  args: {
    title: '设备故障数',
    unit: '台',
    changeMode: 'absolute',
    datasourceProps: { datasourceType: 'STATIC', dataMapping: [{ id: '1', prop: 'value', label: '本期值', field: 'now' }, { id: '2', prop: 'previous', label: '上期值', field: 'before' }], dataConfig: { data: [{ now: 12, before: 19 }] } },
  },
};
