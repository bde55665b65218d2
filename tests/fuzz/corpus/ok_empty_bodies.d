BEGIN {}
BEGIN { ; ; }
END /1/ {}
tick-1s
