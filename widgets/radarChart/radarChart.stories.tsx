import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/雷达图',
  component: WidgetStory,
  args: widgetArgs('radarChart'),
  argTypes: widgetArgTypes('radarChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};


export const Circle: Story = { args: { width: 360, height: 300, shape: 'circle', areaOpacity: 0.5 } };
