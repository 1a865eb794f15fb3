import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/散点图',
  component: WidgetStory,
  args: widgetArgs('scatterChart'),
  argTypes: widgetArgTypes('scatterChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};


export const LargePoints: Story = { args: { width: 480, height: 280, symbolSize: 18, pointColor: '#FAD337' } };
