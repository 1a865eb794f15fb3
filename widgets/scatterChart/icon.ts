// The kind's icon in the template list (its declaration names it: catalogue.icon).
export { DotChartOutlined as default } from '@ant-design/icons';
