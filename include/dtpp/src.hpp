// The D grammar's definitions: include this in exactly one translation unit of a program
// (dtpp::dtpp's src/d/parser.cpp does), so that X3's templates are instantiated once.
#pragma once

#include "dtpp/d/parser_def.hpp"
