import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/发光边框',
  component: WidgetStory,
  args: widgetArgs('borderBox4'),
  argTypes: widgetArgTypes('borderBox4'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const Violet: Story = { args: { borderColor: 'rgba(151,95,228,0.5)', glowColor: 'rgba(151,95,228,0.6)', accentColor: '#B58CFF', radius: 16 } };
