import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/热力图',
  component: WidgetStory,
  args: widgetArgs('heatmapChart'),
  argTypes: widgetArgTypes('heatmapChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const WithLabels: Story = { args: { width: 560, height: 320, showLabel: true, cellGap: 3, cellRadius: 4 } };
