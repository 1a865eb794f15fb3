import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/中国地图',
  component: WidgetStory,
  args: widgetArgs('chinaMap'),
  argTypes: widgetArgTypes('chinaMap'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据（各省用户数）。 */
export const Default: Story = {};

/** 不显示地区名与图例。 */
export const Plain: Story = { args: { width: 420, height: 340, showLabel: false, showVisualMap: false } };
