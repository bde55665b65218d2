/* #line only renumbers: the error is on line 4000000000, and nothing fills the lines before. */
#line 4000000000
BEGIN { x = ; }
