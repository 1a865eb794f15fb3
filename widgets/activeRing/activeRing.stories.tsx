import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/动态环图',
  component: WidgetStory,
  args: widgetArgs('activeRing'),
  argTypes: widgetArgTypes('activeRing'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const MappedData: Story = {
  args: {
    datasourceProps: {
      datasourceType: 'STATIC',
      dataMapping: [
        { id: '1', prop: 'name', label: '名称', field: 'type' },
        { id: '2', prop: 'value', label: '数值', field: 'count' },
      ],
      dataConfig: { data: [{ type: '查询接口', count: 42 }, { type: '写入接口', count: 17 }, { type: '统计接口', count: 26 }] },
    },
    innerRadius: 40,
  },
};
