import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/面积图',
  component: WidgetStory,
  args: widgetArgs('areaChart'),
  argTypes: widgetArgTypes('areaChart'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Straight: Story = { args: { width: 480, height: 280, smooth: false, areaOpacity: 0.6 } };
