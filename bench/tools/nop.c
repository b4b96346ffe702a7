/* nop: the minimal program whose spawn and exit bench/limits measures. */
int
main(void)
{
	return 0;
}
