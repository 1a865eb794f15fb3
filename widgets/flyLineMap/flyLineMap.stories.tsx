import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/飞线地图',
  component: WidgetStory,
  args: widgetArgs('flyLineMap'),
  argTypes: widgetArgTypes('flyLineMap'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据（北京、上海、广州等地之间的线路）。 */
export const Default: Story = {};

/** 数据中有地图上找不到的地点：其线路不画，并在左下角列出。 */
export const UnknownPlace: Story = {
  args: {
    width: 480,
    height: 380,
    datasourceProps: {
      datasourceType: 'STATIC',
      dataMapping: [
        { id: '1', prop: 'from', label: '起点', field: 'from' },
        { id: '2', prop: 'to', label: '终点', field: 'to' },
        { id: '3', prop: 'value', label: '数值', field: 'value' },
      ],
      dataConfig: { data: [{ from: '杭州', to: '拉萨', value: 30 }, { from: '杭州', to: '广东', value: 50 }, { from: '杭州', to: '火星基地', value: 10 }] },
    },
  },
};
